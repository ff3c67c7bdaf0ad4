package trace

import _ "embed"

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of trace version 1, for
// editors and other tools. Read does not need it: it checks the same
// rules, and more, in code.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }
