// Package lsp is cogflow's language server: the Language Server Protocol
// spoken over stdio (`cogflow lsp`), built on the project's own parser,
// checker, knowledge base and printer, so that an editor says exactly what
// `cogflow check` says.
//
// The JSON-RPC layer is the package's own (jsonrpc.go), not a library:
// the protocol needs little of JSON-RPC (Content-Length framing, requests,
// notifications, cancellation), and owning it keeps UTF-16 positions,
// cancellation and the order of notifications in one place, with no
// dependency beyond the standard library.
//
// A feature is a file with an init function that registers its methods
// and the capability it announces (register). Handlers read a Document:
// an open file as the server last analyzed it, never a stale one.
package lsp
