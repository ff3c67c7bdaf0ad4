package lsp

import (
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// navSig is a callable's signature as hover and signature help show it,
// in the form of docs/language.md's tables:
// `click(target: element, button?: text) element`.
type navSig struct {
	label  string
	params []navSigParam
	doc    string
}

// navSigParam is one parameter: its text in the label, the byte range of
// that text (for signature help's highlighting), and its name.
type navSigParam struct {
	name       string
	text       string
	start, end int
	namedOnly  bool
	doc        string
}

// navCommonParams are the named options every action takes (check's
// addCommonParams); they would repeat on every signature, so hover and
// signature help leave them out and the docs list them once.
var navCommonParams = map[string]bool{"timeout": true, "example": true, "in_doubt": true}

// navActionSig is the signature of an action.
func navActionSig(a *check.Action) navSig {
	var ps []navSigParam
	for _, p := range a.Params {
		if navCommonParams[p.Name] {
			continue
		}
		var ts []string
		for _, t := range p.Types {
			ts = append(ts, t.String())
		}
		opt := ""
		if p.Optional {
			opt = "?"
		}
		ps = append(ps, navSigParam{name: p.Name, text: p.Name + opt + ": " + strings.Join(ts, "|"), namedOnly: p.NamedOnly})
	}
	return navBuildSig(string(a.Name), ps, a.Result, a.Doc)
}

// navFuncSig is the signature of a library function.
func navFuncSig(s funcs.Signature) navSig {
	var ps []navSigParam
	for _, p := range s.Params {
		ps = append(ps, navSigParam{name: p.Name, text: p.Name + ": " + p.Type.String(), doc: p.Description})
	}
	if v := s.Variadic; v != nil {
		ps = append(ps, navSigParam{name: v.Name, text: v.Name + ": ..." + v.Type.String(), doc: v.Description})
	}
	return navBuildSig(s.Name, ps, s.Result, s.Description)
}

func navBuildSig(name string, ps []navSigParam, result types.Type, doc string) navSig {
	var b strings.Builder
	b.WriteString(name + "(")
	for i := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		ps[i].start = b.Len()
		b.WriteString(ps[i].text)
		ps[i].end = b.Len()
	}
	b.WriteString(")")
	if result.Kind != types.Void {
		b.WriteString(" " + result.String())
	}
	return navSig{label: b.String(), params: ps, doc: doc}
}

// navFuncSigs are the library's signatures, computed once: the library is
// the same for every document (kb.CheckEnv).
var navFuncSigs = sync.OnceValue(funcs.Signatures)
