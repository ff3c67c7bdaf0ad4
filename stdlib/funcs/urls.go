package funcs

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// urlFuncs build web addresses. They exist for the API-first browser
// skills (stdlib/skills/browser.cog): opening the address a GET form would
// have gone to, instead of typing into the form and submitting it.
var urlFuncs = map[string]function.Function{
	"urlquery": build("urlquery", function.Spec{
		Description: "Escapes the text for a query component of a URL as an HTML form encodes a field (application/x-www-form-urlencoded): a space is +, and every byte but ASCII letters, digits and *-._ is %XX of its UTF-8.",
		Params:      []function.Parameter{strParam},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(FormEscape(args[0].AsString())), nil
		},
	}),
	"with_query": build("with_query", function.Spec{
		Description: "Returns the address with one more query parameter name=value (both escaped as urlquery does), before any #fragment; the parameters it has are kept.",
		Params: []function.Parameter{
			param("url", cty.String, "An absolute http or https address."),
			param("name", cty.String, "The parameter's name, such as a form field's name."),
			param("value", cty.String, "The parameter's value."),
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			u, err := withQuery(args[0].AsString(), args[1].AsString(), args[2].AsString())
			return cty.StringVal(u), err
		},
	}),
}

// FormEscape is urlquery: the application/x-www-form-urlencoded byte
// serializer of the URL standard, the one a browser applies to a GET
// form's fields, so an address built with it is the very address
// submitting the form gives. (Go's url.QueryEscape differs on '~' and '*'.)
func FormEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			b.WriteByte('+')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// withQuery appends name=value to the address's query, keeping what is
// there (its order and spelling) and the fragment after it.
func withQuery(raw, name, value string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%q is not an address: %w", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("%q is not an absolute http or https address", raw)
	}
	if name == "" {
		return "", fmt.Errorf("the parameter's name is empty")
	}
	base, frag, hasFrag := strings.Cut(raw, "#")
	sep := "?"
	switch {
	case strings.HasSuffix(base, "?") || strings.HasSuffix(base, "&"):
		sep = ""
	case strings.Contains(base, "?"):
		sep = "&"
	}
	out := base + sep + FormEscape(name) + "=" + FormEscape(value)
	if hasFrag {
		out += "#" + frag
	}
	return out, nil
}
