// Package stdlib holds what cogflow ships by default: the operation-cognition
// knowledge base (knowledge.hcl, decoded by package stdlib/kb), the function
// library exposed to workflows and the per-driver skills.
package stdlib

import _ "embed"

// KnowledgeFilename is the name of the default knowledge base file, used as the
// filename in diagnostics about the embedded copy.
const KnowledgeFilename = "knowledge.hcl"

// KnowledgeHCL is the source of the default operation-cognition knowledge base,
// embedded from knowledge.hcl. Treat it as read-only; package stdlib/kb parses it.
//
//go:embed knowledge.hcl
var KnowledgeHCL []byte
