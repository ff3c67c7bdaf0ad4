package config

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/internal/origin"
)

// The urls block widens the URL policy of runs: open and new_tab go to a
// URL that came from a model's answer or from the page only when it is
// http(s) and its origin is one the workflow names, or one listed here.
//
//	urls {
//	  allow = ["https://docs.example.com", "https://*.example.org", "http://127.0.0.1:8080"]
//	}
//
// An entry is an origin (scheme, host and an optional port; no path),
// "scheme://*.domain" for every subdomain of domain (not domain itself),
// or "*" for every http(s) origin. The project file's list replaces the
// user file's.

// FieldAllow is the urls block's allow list, as Source names it.
const FieldAllow = "urls.allow"

var urlsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "allow"}}}

func init() {
	rootSchema.Blocks = append(rootSchema.Blocks, hcl.BlockHeaderSchema{Type: "urls"})
}

// decodeURLs decodes a urls block into out[FieldAllow].
func decodeURLs(b *hcl.Block, out map[string]setting) hcl.Diagnostics {
	content, diags := b.Body.Content(urlsSchema)
	attr, ok := content.Attributes["allow"]
	if !ok {
		return diags
	}
	invalid := func(rng hcl.Range, format string, args ...any) hcl.Diagnostics {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for urls.allow",
			Detail:   fmt.Sprintf(format, args...),
			Subject:  rng.Ptr(),
		})
	}
	tuple, ok := attr.Expr.(*hclsyntax.TupleConsExpr)
	if !ok {
		return invalid(attr.Expr.Range(), "allow must be a list of origins such as [\"https://example.com\"].")
	}
	var list []string
	for _, e := range tuple.Exprs {
		v, d := e.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if v.IsNull() || v.Type() != cty.String {
			return invalid(e.Range(), "each entry must be a string such as \"https://example.com\", got %s.", v.Type().FriendlyName())
		}
		s := v.AsString()
		if err := origin.CheckEntry(s); err != nil {
			return invalid(e.Range(), "%q: %v.", s, err)
		}
		list = append(list, s)
	}
	if !diags.HasErrors() {
		out[FieldAllow] = setting{value: list, source: short(attr.Range)}
	}
	return diags
}

// printURLs writes the urls block, when there is one, for Print.
func (c *Config) printURLs(w io.Writer) {
	if len(c.AllowOrigins) > 0 {
		fmt.Fprintf(w, "urls {\n  allow = %s  # %s\n}\n", quoteList(c.AllowOrigins), c.sources[FieldAllow])
	}
}

// quoteList renders a list of strings as HCL.
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
