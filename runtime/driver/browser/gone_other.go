//go:build !unix

package browser

// alive cannot ask about a process here without cgo; a closed DevTools
// connection is taken as the browser having exited.
func alive(int) bool { return false }
