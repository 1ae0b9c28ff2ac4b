package privacy_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"hackdesk/dev/testenv"
)

// privacyMap is docs/privacy.md's YAML block.
type privacyMap struct {
	Tables map[string]struct {
		Purpose string            `yaml:"purpose"`
		Readers string            `yaml:"readers"`
		Kept    string            `yaml:"kept"`
		Erased  string            `yaml:"erased"`
		Columns map[string]string `yaml:"columns"`
	} `yaml:"tables"`
}

// readMap reads the block after the "# privacy-map" line of
// docs/privacy.md.
func readMap(t *testing.T) privacyMap {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "docs", "privacy.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```yaml\n# privacy-map\n")
	if !ok {
		t.Fatal("docs/privacy.md has no ```yaml block starting with # privacy-map")
	}
	block, _, ok = strings.Cut(block, "\n```")
	if !ok {
		t.Fatal("docs/privacy.md: the privacy map's block is not closed")
	}
	var m privacyMap
	if err := yaml.Unmarshal([]byte(block), &m); err != nil {
		t.Fatalf("docs/privacy.md: the privacy map: %v", err)
	}
	return m
}

// TestPrivacyMap holds docs/privacy.md's map and the schema (every
// migration applied) in step: every text, jsonb, bytea and array column of
// every table is listed, as personal (with its table's purpose, readers,
// retention and erasure written down) or as not personal with a reason,
// and the map lists no column the schema does not have.
func TestPrivacyMap(t *testing.T) {
	t.Parallel()
	m := readMap(t)
	s := testenv.Store(t)
	cols, err := testenv.TextColumns(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	inSchema := map[string]bool{}
	var missing []string
	for _, c := range cols {
		inSchema[c.String()] = true
		table, ok := m.Tables[c.Table]
		if !ok {
			missing = append(missing, c.String()+" (its table is not in the map)")
			continue
		}
		if _, ok := table.Columns[c.Name]; !ok {
			missing = append(missing, c.String())
		}
	}
	sort.Strings(missing)
	for _, c := range missing {
		t.Errorf("docs/privacy.md does not list %s: say whether it holds personal data (and if so its purpose, readers, retention and erasure)", c)
	}
	for name, table := range m.Tables {
		personal := false
		for col, what := range table.Columns {
			if !inSchema[name+"."+col] {
				t.Errorf("docs/privacy.md lists %s.%s, which no table has", name, col)
			}
			switch {
			case what == "personal" || strings.HasPrefix(what, "personal ("):
				personal = true
			case strings.HasPrefix(what, "not personal ") || what == "not personal":
			default:
				t.Errorf("%s.%s: %q: say \"personal\" or \"not personal\" (with a reason in parentheses)", name, col, what)
			}
		}
		if personal && (table.Purpose == "" || table.Readers == "" || table.Kept == "" || table.Erased == "") {
			t.Errorf("%s holds personal data: its purpose, readers, kept and erased must all be written", name)
		}
	}
}
