package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// isolateConfig keeps the real user config folder and the caller's
// environment out of a test: an empty user folder, no LLM variables.
func isolateConfig(t testing.TB) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("AppData", t.TempDir())
	for _, v := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "COGFLOW_TEXT_MODEL", "COGFLOW_ELEMENT_MODEL"} {
		t.Setenv(v, "")
	}
}

func TestConfigCommand(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	writeFile(t, dir, "cogflow.hcl", `llm {
  text_model  = "gpt-4o"
  temperature = 0.2
  api_key     = env("COGFLOW_TEST_KEY")
}
`)
	t.Setenv("COGFLOW_TEST_KEY", "sk-test-0123456789abcdefQZ")
	t.Setenv("COGFLOW_ELEMENT_MODEL", "gpt-4.1")
	r := runCLI(t, "", "config", "--dir", dir)
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	file := filepath.Join(dir, "cogflow.hcl")
	for _, want := range []string{
		"# project file: " + file + "\n",
		"(not found)", // the user file
		`base_url         = "https://api.openai.com/v1"   # default`,
		`api_key          = "sk-…QZ"`, "# " + file + ":4:3 (env COGFLOW_TEST_KEY)",
		`text_model       = "gpt-4o"`, "# " + file + ":2:3",
		`element_model    = "gpt-4.1"`, "# env COGFLOW_ELEMENT_MODEL",
		"temperature      = 0.2", "# " + file + ":3:3",
		`timeout          = "60s"`,
		"max_retries      = 3",
		`cache_dir        = ".cogflow/cache"`,
		"# LLM: configured (gpt-4o and gpt-4.1 at https://api.openai.com/v1)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "0123456789abcdef") {
		t.Errorf("the key leaked:\n%s", r.stdout)
	}
}

func TestConfigCommandDefaults(t *testing.T) {
	isolateConfig(t)
	r := runCLI(t, "", "config", "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{"api_key          = (not set)", "# default (text_model)", "# LLM: not configured: set OPENAI_API_KEY"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestConfigCommandBadFile(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	file := writeFile(t, dir, "cogflow.hcl", "llm {\n  tempreature = 0.2\n  max_retries = 20\n}\n")
	r := runCLI(t, "", "config", "--dir", dir)
	if r.code != exitBadInput || r.stdout != "" {
		t.Fatalf("code %d, stdout:\n%s", r.code, r.stdout)
	}
	want := file + `:2:3: error: unsupported argument: An argument named "tempreature" is not expected here
    tempreature = 0.2
    ^~~~~~~~~~~
  = help: did you mean "temperature"?
` + file + `:3:17: error: invalid value for max_retries: max_retries must be between 0 and 10, got 20
    max_retries = 20
                  ^~
`
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}

	// A syntax error.
	writeFile(t, dir, "cogflow.hcl", "llm {\n  text_model = \n}\n")
	r = runCLI(t, "", "config", "--dir", dir)
	if r.code != exitBadInput || !strings.HasPrefix(r.stderr, file+":2:16: error: invalid expression") {
		t.Errorf("code %d, stderr:\n%s", r.code, r.stderr)
	}

	// A bad user file is reported with its own path.
	user := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", user)
	userFile := writeFile(t, mkdir(t, user, "cogflow"), "cogflow.hcl", "llm {\n  timeout = \"0s\"\n}\n")
	r = runCLI(t, "", "config", "--dir", t.TempDir())
	if r.code != exitBadInput || !strings.HasPrefix(r.stderr, userFile+":2:13: error: invalid value for timeout: timeout must be more than 0") {
		t.Errorf("code %d, stderr:\n%s", r.code, r.stderr)
	}
}

func TestConfigCommandWarning(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	file := writeFile(t, dir, "cogflow.hcl", "llm {\n  api_key = env(\"COGFLOW_TEST_UNSET\")\n}\n")
	t.Setenv("COGFLOW_TEST_UNSET", "")
	r := runCLI(t, "", "config", "--dir", dir)
	if r.code != exitOK {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, file+":2:13: warning: environment variable not set: COGFLOW_TEST_UNSET is not set") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, "api_key          = (not set)") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

func TestConfigCommandUsage(t *testing.T) {
	isolateConfig(t)
	if r := runCLI(t, "", "config", "extra"); r.code != exitUsage || !strings.Contains(r.stderr, `unexpected argument "extra"`) {
		t.Errorf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	r := runCLI(t, "", "help")
	for _, want := range []string{"  config ", "  cost "} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := runCLI(t, "", "config", "--help"); r.code != exitOK || !strings.Contains(r.stdout, "Usage: cogflow config [--dir DIR]") {
		t.Errorf("config --help: code %d\n%s", r.code, r.stdout)
	}
}

func mkdir(t *testing.T, parent, name string) string {
	t.Helper()
	p := filepath.Join(parent, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
