package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAllowOrigins: the urls block's list, where it came from, the project
// file's replacing the user's.
func TestAllowOrigins(t *testing.T) {
	user := dirWith(t, "urls {\n  allow = [\"https://user.example\"]\n}\n")
	project := dirWith(t, "urls {\n  allow = [\"https://*.example.org\", \"http://127.0.0.1:8080\", \"*\"]\n}\nllm {\n  text_model = \"m\"\n}\n")
	c := mustLoad(t, project, user, envMap())
	if got := strings.Join(c.AllowOrigins, " "); got != "https://*.example.org http://127.0.0.1:8080 *" {
		t.Errorf("AllowOrigins = %q", got)
	}
	if got := c.Source(FieldAllow); got != at(project, 2, 3) {
		t.Errorf("source %q", got)
	}
	if c.LLM.TextModel != "m" {
		t.Errorf("the llm block next to urls was not read: %q", c.LLM.TextModel)
	}
	if !strings.Contains(c.String(), `allow = ["https://*.example.org", "http://127.0.0.1:8080", "*"]`) {
		t.Errorf("Print does not show the list:\n%s", c)
	}
	c = mustLoad(t, dirWith(t, ""), user, envMap())
	if got := strings.Join(c.AllowOrigins, " "); got != "https://user.example" {
		t.Errorf("user file's AllowOrigins = %q", got)
	}
}

// TestFileTooLarge: a configuration file over the limit is an error, not
// read whole.
func TestFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := "# " + strings.Repeat("x", MaxFileSize) + "\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := LoadWith(dir, "", envMap())
	if !diags.HasErrors() || !strings.Contains(diags.Err().Error(), "at most 65536 bytes") {
		t.Errorf("diagnostics %v", diags)
	}
}
