package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/diag"
)

// envMap is a test environment.
func envMap(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// dirWith makes a folder holding cogflow.hcl with text, or no file when
// text is "".
func dirWith(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if text != "" {
		if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func mustLoad(t *testing.T, project, user string, env func(string) string) *Config {
	t.Helper()
	c, diags := LoadWith(project, user, env)
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics: %v", diags.Err())
	}
	return c
}

func at(dir string, line, col int) string {
	return fmt.Sprintf("%s:%d:%d", filepath.Join(dir, FileName), line, col)
}

func TestDefaults(t *testing.T) {
	c, diags := LoadWith(dirWith(t, ""), dirWith(t, ""), envMap())
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags.Err())
	}
	want := LLM{
		BaseURL: "https://api.openai.com/v1", TextModel: "gpt-4o-mini", ElementModel: "gpt-4o-mini",
		Temperature: 0, Timeout: 60 * time.Second, MaxRetries: 3, CacheDir: ".cogflow/cache",
		CandidateBudget: 800,
	}
	if c.LLM != want {
		t.Errorf("LLM = %+v, want %+v", c.LLM, want)
	}
	for _, f := range Fields {
		want := "default"
		if f == FieldElementModel {
			want = "default (text_model)"
		}
		if got := c.Source(f); got != want {
			t.Errorf("Source(%s) = %q, want %q", f, got, want)
		}
	}
	if c.Source("llm.base_url") != "default" || c.Source("nope") != "" {
		t.Errorf("Source with prefix / unknown field: %q, %q", c.Source("llm.base_url"), c.Source("nope"))
	}
	if c.LLMConfigured() {
		t.Error("LLMConfigured with no key and the OpenAI endpoint")
	}
	if c.Project.Found || c.User.Found {
		t.Error("files reported found")
	}
}

func TestPrecedence(t *testing.T) {
	user := dirWith(t, `llm {
  text_model  = "user-model"
  temperature = 0.7
  timeout     = "30s"
  cache_dir   = "/var/cache/cogflow"
}
`)
	project := dirWith(t, `# project settings
llm {
  text_model  = "project-model"
  max_retries = 5
  api_key     = "sk-project-key-0123456789"
  candidate_budget = 1200
  rate_limit = 90
}
`)
	c := mustLoad(t, project, user, envMap())
	cases := []struct {
		field, source string
		value         any
	}{
		{FieldTextModel, at(project, 3, 3), "project-model"},         // project over user
		{FieldMaxRetries, at(project, 4, 3), 5},                      // project over default
		{FieldTemperature, at(user, 3, 3), 0.7},                      // user over default
		{FieldTimeout, at(user, 4, 3), 30 * time.Second},             // user over default
		{FieldCacheDir, at(user, 5, 3), "/var/cache/cogflow"},        // user over default
		{FieldElementModel, "default (text_model)", "project-model"}, // follows the effective text model
		{FieldBaseURL, "default", DefaultBaseURL},
		{FieldAPIKey, at(project, 5, 3), "sk-project-key-0123456789"},
		{FieldCandidateBudget, at(project, 6, 3), 1200},
		{FieldRateLimit, at(project, 7, 3), 90},
	}
	values := map[string]any{
		FieldBaseURL: c.LLM.BaseURL, FieldAPIKey: c.LLM.APIKey, FieldTextModel: c.LLM.TextModel,
		FieldElementModel: c.LLM.ElementModel, FieldTemperature: c.LLM.Temperature, FieldTimeout: c.LLM.Timeout,
		FieldMaxRetries: c.LLM.MaxRetries, FieldCacheDir: c.LLM.CacheDir, FieldCandidateBudget: c.LLM.CandidateBudget,
		FieldRateLimit: c.LLM.RequestsPerMinute,
	}
	for _, tc := range cases {
		if got := values[tc.field]; got != tc.value {
			t.Errorf("%s = %v, want %v", tc.field, got, tc.value)
		}
		if got := c.Source(tc.field); got != tc.source {
			t.Errorf("Source(%s) = %q, want %q", tc.field, got, tc.source)
		}
	}
	if !c.Project.Found || !c.User.Found {
		t.Errorf("files not reported found: %+v %+v", c.Project, c.User)
	}

	// The environment wins over both files.
	c = mustLoad(t, project, user, envMap(
		"OPENAI_API_KEY", "sk-from-env-abcdefghij",
		"OPENAI_BASE_URL", "http://localhost:11434/v1",
		"COGFLOW_TEXT_MODEL", "env-text",
		"COGFLOW_ELEMENT_MODEL", "env-element",
	))
	for field, want := range map[string]string{
		FieldAPIKey: "env OPENAI_API_KEY", FieldBaseURL: "env OPENAI_BASE_URL",
		FieldTextModel: "env COGFLOW_TEXT_MODEL", FieldElementModel: "env COGFLOW_ELEMENT_MODEL",
	} {
		if got := c.Source(field); got != want {
			t.Errorf("with env: Source(%s) = %q, want %q", field, got, want)
		}
	}
	if c.LLM.APIKey != "sk-from-env-abcdefghij" || c.LLM.BaseURL != "http://localhost:11434/v1" ||
		c.LLM.TextModel != "env-text" || c.LLM.ElementModel != "env-element" {
		t.Errorf("with env: %+v", c.LLM)
	}

	// An element model set in a file is kept when only the text model is
	// overridden; an unset one follows the override.
	withElem := dirWith(t, "llm {\n  element_model = \"file-element\"\n}\n")
	c = mustLoad(t, withElem, "", envMap("COGFLOW_TEXT_MODEL", "env-text"))
	if c.LLM.ElementModel != "file-element" || c.Source(FieldElementModel) != at(withElem, 2, 3) {
		t.Errorf("element_model = %q from %q", c.LLM.ElementModel, c.Source(FieldElementModel))
	}
	c = mustLoad(t, dirWith(t, ""), "", envMap("COGFLOW_TEXT_MODEL", "env-text"))
	if c.LLM.ElementModel != "env-text" {
		t.Errorf("element_model = %q, want it to follow COGFLOW_TEXT_MODEL", c.LLM.ElementModel)
	}
	// An empty variable is not set.
	c = mustLoad(t, project, "", envMap("OPENAI_API_KEY", ""))
	if c.Source(FieldAPIKey) != at(project, 5, 3) {
		t.Errorf("empty OPENAI_API_KEY overrode the file: %q", c.Source(FieldAPIKey))
	}
}

func TestEnvFunction(t *testing.T) {
	dir := dirWith(t, "llm {\n  api_key = env(\"MY_KEY\")\n  text_model = \"m-${env(\"SUFFIX\")}\"\n}\n")
	c := mustLoad(t, dir, "", envMap("MY_KEY", "sk-secret-from-my-key-99", "SUFFIX", "large"))
	if c.LLM.APIKey != "sk-secret-from-my-key-99" || c.LLM.TextModel != "m-large" {
		t.Errorf("LLM = %+v", c.LLM)
	}
	if got, want := c.Source(FieldAPIKey), at(dir, 2, 3)+" (env MY_KEY)"; got != want {
		t.Errorf("Source(api_key) = %q, want %q", got, want)
	}
	if !c.LLMConfigured() {
		t.Error("a key from env() does not count")
	}

	// An unset variable gives an empty value and a warning at the call.
	c, diags := LoadWith(dir, "", envMap("SUFFIX", "x"))
	if diags.HasErrors() || len(diags) != 1 {
		t.Fatalf("want one warning, got %v", diags)
	}
	d := diags[0]
	if d.Severity != diag.Warning || !strings.Contains(d.Message, "MY_KEY is not set") || d.Range.Start.Line != 2 || d.Range.Start.Column != 13 {
		t.Errorf("warning = %s", d)
	}
	if c.LLMConfigured() || c.LLM.APIKey != "" || c.Source(FieldAPIKey) != "default" {
		t.Errorf("an unset env() key counts as configured: %q from %q", c.LLM.APIKey, c.Source(FieldAPIKey))
	}
	// …and leaves the key to the user file.
	user := dirWith(t, "llm {\n  api_key = \"sk-user-file-key-12345\"\n}\n")
	c, _ = LoadWith(dir, user, envMap("SUFFIX", "x"))
	if c.LLM.APIKey != "sk-user-file-key-12345" || c.Source(FieldAPIKey) != at(user, 2, 3) {
		t.Errorf("api_key = %q from %q, want the user file's", c.LLM.APIKey, c.Source(FieldAPIKey))
	}
	// An unset variable where a URL is needed is not an error either.
	c, diags = LoadWith(dirWith(t, "llm {\n  base_url = env(\"LOCAL_LLM\")\n}\n"), "", envMap())
	if diags.HasErrors() || c.LLM.BaseURL != DefaultBaseURL {
		t.Errorf("base_url = env(unset): %v, %q", diags, c.LLM.BaseURL)
	}
}

// TestDiagnostics checks every kind of problem and its position.
func TestDiagnostics(t *testing.T) {
	cases := []struct {
		name, src string
		line, col int
		want      string
	}{
		{"syntax", "llm {\n  text_model = \n}\n", 2, 16, "Invalid expression"},
		{"syntax unclosed", "llm {\n  text_model = \"x\"\n", 1, 5, "Unclosed configuration block"},
		{"unknown attribute", "llm {\n  tempreature = 1\n}\n", 2, 3, `Did you mean "temperature"?`},
		{"unknown attribute far", "llm {\n  colour = 1\n}\n", 2, 3, `An argument named "colour" is not expected here`},
		{"unknown block", "lm {\n}\n", 1, 1, `Did you mean "llm"?`},
		{"nested block", "llm {\n  retry {}\n}\n", 2, 3, `Blocks of type "retry" are not expected here`},
		{"top-level attribute", "api_key = \"x\"\n", 1, 1, `An argument named "api_key" is not expected here`},
		{"block label", "llm \"openai\" {\n}\n", 1, 5, "Extraneous label for llm"},
		{"duplicate block", "llm {\n}\nllm {\n}\n", 3, 1, "already defined at"},
		{"temperature type", "llm {\n  temperature = \"warm\"\n}\n", 2, 17, "a number is required, got string"},
		{"temperature high", "llm {\n  temperature = 2.5\n}\n", 2, 17, "between 0 and 2, got 2.5"},
		{"temperature negative", "llm {\n  temperature = -0.1\n}\n", 2, 17, "between 0 and 2, got -0.1"},
		{"max_retries type", "llm {\n  max_retries = \"three\"\n}\n", 2, 17, "a number is required"},
		{"max_retries high", "llm {\n  max_retries = 11\n}\n", 2, 17, "between 0 and 10, got 11"},
		{"max_retries negative", "llm {\n  max_retries = -1\n}\n", 2, 17, "between 0 and 10, got -1"},
		{"max_retries fraction", "llm {\n  max_retries = 1.5\n}\n", 2, 17, "whole number, got 1.5"},
		{"candidate_budget type", "llm {\n  candidate_budget = \"small\"\n}\n", 2, 22, "a number is required, got string"},
		{"candidate_budget low", "llm {\n  candidate_budget = 50\n}\n", 2, 22, "candidate_budget must be between 100 and 100000 tokens, got 50"},
		{"candidate_budget high", "llm {\n  candidate_budget = 1e6\n}\n", 2, 22, "between 100 and 100000 tokens, got 1000000"},
		{"candidate_budget fraction", "llm {\n  candidate_budget = 800.5\n}\n", 2, 22, "candidate_budget must be a whole number, got 800.5"},
		{"rate_limit negative", "llm {\n  rate_limit = -1\n}\n", 2, 16, "rate_limit must be between 0 and 1000000, got -1"},
		{"rate_limit fraction", "llm {\n  rate_limit = 0.5\n}\n", 2, 16, "rate_limit must be a whole number, got 0.5"},
		{"timeout number", "llm {\n  timeout = 30\n}\n", 2, 13, `duration string such as "30s"`},
		{"timeout zero", "llm {\n  timeout = \"0s\"\n}\n", 2, 13, "more than 0"},
		{"timeout negative", "llm {\n  timeout = \"-5s\"\n}\n", 2, 13, "more than 0"},
		{"timeout words", "llm {\n  timeout = \"soon\"\n}\n", 2, 13, `got "soon"`},
		{"string type number", "llm {\n  text_model = 4\n}\n", 2, 16, "a string is required, got number"},
		{"string type list", "llm {\n  api_key = [\"a\"]\n}\n", 2, 13, "a string is required, got tuple"},
		{"base_url scheme", "llm {\n  base_url = \"localhost:11434\"\n}\n", 2, 14, "http:// or https://"},
		{"empty model", "llm {\n  element_model = \"  \"\n}\n", 2, 19, "must not be empty"},
		{"variable", "llm {\n  api_key = MY_KEY\n}\n", 2, 13, "Variables not allowed"},
		{"other function", "llm {\n  api_key = file(\"/etc/passwd\")\n}\n", 2, 13, `no function named "file"`},
		{"env without name", "llm {\n  api_key = env()\n}\n", 2, 17, "Not enough function arguments"},
		{"env empty name", "llm {\n  api_key = env(\"\")\n}\n", 2, 19, "must not be empty"},
		{"urls not a list", "urls {\n  allow = \"https://a.example\"\n}\n", 2, 11, "a list of origins"},
		{"urls path", "urls {\n  allow = [\"https://a.example\", \"https://b.example/x\"]\n}\n", 2, 33, "no user, path, query or fragment"},
		{"urls scheme", "urls {\n  allow = [\"file:///etc\"]\n}\n", 2, 12, "only http:// and https://"},
		{"urls number", "urls {\n  allow = [4]\n}\n", 2, 12, "must be a string"},
		{"urls unknown attribute", "urls {\n  deny = []\n}\n", 2, 3, `An argument named "deny" is not expected here`},
		{"nesting", "llm {\n  text_model = " + strings.Repeat("[", 50000) + "\n}\n", 2, 115, "Nesting too deep"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := dirWith(t, tc.src)
			c, diags := LoadWith(dir, "", envMap())
			if !diags.HasErrors() {
				t.Fatalf("no error for %q", tc.src)
			}
			d := diags[0]
			// The message begins in lower case and a "Did you mean"
			// became the suggestion (internal/hcldiag).
			text := d.Message + ". " + d.Suggestion
			if !strings.Contains(strings.ToLower(text), strings.ToLower(tc.want)) {
				t.Errorf("diagnostic %q does not contain %q", text, tc.want)
			}
			if !d.Range.Start.IsValid() {
				t.Fatalf("diagnostic %q has no position", text)
			}
			if d.Range.Filename != filepath.Join(dir, FileName) || d.Range.Start.Line != tc.line || d.Range.Start.Column != tc.col {
				t.Errorf("diagnostic %q at %s, want line %d col %d", text, d.Range, tc.line, tc.col)
			}
			if c == nil {
				t.Fatal("nil Config with diagnostics")
			}
		})
	}
}

// TestBadValueKeepsDefault: one wrong value does not lose the others.
func TestBadValueKeepsDefault(t *testing.T) {
	dir := dirWith(t, "llm {\n  temperature = 9\n  text_model = \"ok\"\n}\n")
	c, diags := LoadWith(dir, "", envMap())
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	if c.LLM.Temperature != DefaultTemperature || c.Source(FieldTemperature) != "default" || c.LLM.TextModel != "ok" {
		t.Errorf("LLM = %+v", c.LLM)
	}
}

func TestUserFileDiagnosticsNamed(t *testing.T) {
	user := dirWith(t, "llm {\n  max_retries = 99\n}\n")
	_, diags := LoadWith(dirWith(t, ""), user, envMap())
	if len(diags) != 1 || diags[0].Range.Filename != filepath.Join(user, FileName) {
		t.Fatalf("diagnostics: %v", diags)
	}
}

func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil { // a folder, not a file
		t.Fatal(err)
	}
	_, diags := LoadWith(dir, "", envMap())
	if !diags.HasErrors() || !strings.Contains(diags[0].Message, "cannot read") {
		t.Fatalf("diagnostics: %v", diags)
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "(not set)",
		"sk-abcdefghijklmnopqrstuv": "sk-…uv",
		"abcdefghijkl":              "abc…kl",
		"short-key":                 "…",
		"ключ-ключ-ключ":            "клю…юч",
	} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLLMConfigured(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want bool
	}{
		{nil, false},
		{[]string{"OPENAI_API_KEY", "sk-abcdefghijklmnop"}, true},
		{[]string{"OPENAI_BASE_URL", "http://localhost:11434/v1"}, true}, // Ollama: no key needed
		{[]string{"OPENAI_BASE_URL", "https://api.openai.com/v1/"}, false},
	} {
		c := mustLoad(t, dirWith(t, ""), "", envMap(tc.env...))
		if got := c.LLMConfigured(); got != tc.want {
			t.Errorf("env %v: LLMConfigured = %v, want %v", tc.env, got, tc.want)
		}
	}
}

func TestPrint(t *testing.T) {
	project := dirWith(t, "llm {\n  text_model = \"gpt-4o\"\n  timeout = \"1m30s\"\n}\n")
	c := mustLoad(t, project, "", envMap("OPENAI_API_KEY", "sk-live-0123456789abcdefXY"))
	out := c.String()
	for _, want := range []string{
		"# project file: " + filepath.Join(project, FileName) + "\n",
		"# user file:    (no user config folder)",
		`api_key          = "sk-…XY"`, "# env OPENAI_API_KEY",
		`text_model       = "gpt-4o"`, "# " + at(project, 2, 3),
		`timeout          = "90s"`,
		`element_model    = "gpt-4o"`, "# default (text_model)",
		"temperature      = 0 ",
		"# LLM: configured (gpt-4o at https://api.openai.com/v1)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "0123456789abcdef") {
		t.Errorf("the key leaked:\n%s", out)
	}
	var b bytes.Buffer
	c.Print(&b)
	if b.String() != out {
		t.Error("Print and String differ")
	}

	c = mustLoad(t, dirWith(t, ""), dirWith(t, ""), envMap())
	out = c.String()
	for _, want := range []string{"api_key          = (not set)", "(not found)", "# LLM: not configured: set OPENAI_API_KEY"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRenderDiagnostics(t *testing.T) {
	// The é before the error makes HCL's column (characters) differ from
	// lang/diag's (bytes).
	dir := dirWith(t, "llm {\n  text_model = \"é\" x\n  tempreature = 1\n}\n")
	c, diags := LoadWith(dir, "", envMap())
	if !diags.HasErrors() {
		t.Fatal("no error")
	}
	var b bytes.Buffer
	c.Render(&b, diags)
	file := filepath.Join(dir, FileName)
	want := file + ":2:21: error: missing newline after argument: An argument definition must end with a newline\n" +
		"    text_model = \"é\" x\n" +
		"                     ^\n"
	if b.String() != want {
		t.Errorf("rendered:\n%s\nwant:\n%s", b.String(), want)
	}

	dir = dirWith(t, "llm {\n  tempreature = 1\n  max_retries = 12\n}\n")
	c, diags = LoadWith(dir, "", envMap())
	b.Reset()
	c.Render(&b, diags)
	file = filepath.Join(dir, FileName)
	want = file + `:2:3: error: unsupported argument: An argument named "tempreature" is not expected here` + "\n" +
		"    tempreature = 1\n" +
		"    ^~~~~~~~~~~\n" +
		`  = help: did you mean "temperature"?` + "\n" +
		file + ":3:17: error: invalid value for max_retries: max_retries must be between 0 and 10, got 12\n" +
		"    max_retries = 12\n" +
		"                  ^~\n"
	if b.String() != want {
		t.Errorf("rendered:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		60 * time.Second: "60s", 90 * time.Second: "90s", 1500 * time.Millisecond: "1.5s", 250 * time.Millisecond: "250ms",
	} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestLoadUsesProcessEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-process-env-abcdefgh")
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // keep the real user file out
	t.Setenv("HOME", t.TempDir())
	c, diags := Load(dirWith(t, ""))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	if c.Source(FieldAPIKey) != "env OPENAI_API_KEY" {
		t.Errorf("Source(api_key) = %q", c.Source(FieldAPIKey))
	}
}
