package config

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// FuzzDecode: any cogflow.hcl text gives settings or positioned
// diagnostics: never a panic, a stack overflow or a setting of the wrong
// Go type.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("llm {\n  base_url = \"http://localhost:11434/v1\"\n  api_key = env(\"K\")\n  temperature = 0.5\n  timeout = \"30s\"\n  max_retries = 3\n  candidate_budget = 800\n}\n"))
	f.Add([]byte("urls {\n  allow = [\"https://*.example.org\", \"http://127.0.0.1:8080\", \"*\"]\n}\n"))
	f.Add([]byte("llm {\n  text_model = \"${env(\"A\")}-${1 + 2}\"\n}\n"))
	f.Add([]byte("llm {\n  temperature = [for x in [1]: x][0]\n}\n"))
	f.Add([]byte("llm {\n  text_model = <<EOT\nx\nEOT\n}\n"))
	f.Add([]byte("llm {\n  text_model = " + strings.Repeat("[", 200) + "\n}\n"))
	f.Add([]byte("llm { text_model = x" + strings.Repeat(".a", 200) + " }"))
	f.Add([]byte("llm {\n  max_retries = 1e400\n  timeout = \"9999999999h\"\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, diags := decode(src, "fuzz.hcl", func(string) string { return "v" })
		for _, d := range diags {
			if d.Severity == hcl.DiagError && d.Subject == nil {
				// Every error says where; HCL's own have a subject too.
				t.Errorf("diagnostic without a position: %s: %s", d.Summary, d.Detail)
			}
		}
		c := &Config{sources: map[string]string{}}
		for name, s := range out {
			c.set(name, s.value) // panics on a value of the wrong type
		}
		_ = c.String()
	})
}
