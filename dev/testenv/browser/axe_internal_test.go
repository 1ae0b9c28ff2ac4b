package browser

import (
	"strings"
	"testing"
)

// AXE_VERSION and the vendored file must be replaced together.
func TestAxeVersionMatchesTheVendoredFile(t *testing.T) {
	t.Parallel()
	v := AxeVersion()
	if strings.Count(v, ".") != 2 {
		t.Fatalf("AXE_VERSION %q is not a version", v)
	}
	if !strings.HasPrefix(axeSource, "/*! axe v"+v+"\n") {
		t.Fatalf("axe.min.js does not start with the header of axe-core %s: %.40q", v, axeSource)
	}
}
