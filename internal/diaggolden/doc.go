// Package diaggolden holds the golden tests of how every kind of
// diagnostic prints: a workflow (.cog), the configuration (cogflow.hcl),
// the knowledge base (knowledge.hcl), a trace and the compiler's warnings
// all go through lang/diag's one renderer, and testdata/*.txtar keep the
// exact output. It has no code of its own; it imports every source of
// diagnostics, which lang/diag itself must not.
package diaggolden
