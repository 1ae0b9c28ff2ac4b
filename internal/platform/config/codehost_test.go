package config

import (
	"strings"
	"testing"
)

func TestValidateCodeHost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		edit    func(*Config)
		wantErr string
	}{
		{"OKNone", func(*Config) {}, ""},
		{"OKGitHub", func(c *Config) { c.GitHubToken, c.GitHubOrg = "t", "club" }, ""},
		{"OKEnterprise", func(c *Config) {
			c.GitHubToken, c.GitHubOrg, c.GitHubAPIURL = "t", "club", "https://ghe.example.org/api/v3"
		}, ""},
		{"ErrTokenWithoutOrg", func(c *Config) { c.GitHubToken = "t" }, "GITHUB_ORG"},
		{"ErrRelativeAPIURL", func(c *Config) { c.GitHubToken, c.GitHubOrg, c.GitHubAPIURL = "t", "club", "/api/v3" }, "GITHUB_API_URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := complete()
			tc.edit(&c)
			err := c.Validate(RoleWorker)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Validate: %v, want an error naming %s", err, tc.wantErr)
			}
		})
	}
}

func TestFromEnvCodeHost(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "tok")
	t.Setenv("GITHUB_ORG", "club")
	t.Setenv("GITHUB_API_URL", "https://ghe.example.org/api/v3")
	t.Setenv("FOUNDRY_SETUP_WORKFLOW", "")
	c := FromEnv()
	if c.GitHubToken != "tok" || c.GitHubOrg != "club" || c.GitHubAPIURL != "https://ghe.example.org/api/v3" ||
		c.FoundrySetupWorkflow != "foundry-setup.yml" || !c.CodeHostConfigured() {
		t.Fatalf("config = %+v", c)
	}
	t.Setenv("FOUNDRY_SETUP_WORKFLOW", "setup.yaml")
	if c := FromEnv(); c.FoundrySetupWorkflow != "setup.yaml" {
		t.Fatalf("setup workflow = %q", c.FoundrySetupWorkflow)
	}
}
