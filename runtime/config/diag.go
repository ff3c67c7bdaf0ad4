package config

import (
	"io"

	"github.com/cogflow/cogflow/lang/diag"
)

// Render writes diagnostics from Load the one way cogflow prints
// diagnostics (lang/diag), with the source lines of the files c read.
func (c *Config) Render(w io.Writer, ds diag.List) {
	ds.Render(w, c.FileText)
}
