package lsp

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/lang/types"
)

func init() {
	register("textDocument/signatureHelp", signatureHelp, func(caps map[string]any) {
		caps["signatureHelpProvider"] = map[string]any{"triggerCharacters": []string{"(", ","}}
	})
}

// SignatureHelp is the protocol's signature help result.
type SignatureHelp struct {
	Signatures      []SignatureInformation `json:"signatures"`
	ActiveSignature uint32                 `json:"activeSignature"`
	ActiveParameter uint32                 `json:"activeParameter"`
}

// SignatureInformation is one signature; a parameter's label is its
// [start, end) in the signature's label, in UTF-16 units.
type SignatureInformation struct {
	Label         string                 `json:"label"`
	Documentation *MarkupContent         `json:"documentation,omitempty"`
	Parameters    []ParameterInformation `json:"parameters"`
}

// ParameterInformation is one parameter of a signature.
type ParameterInformation struct {
	Label         [2]uint32      `json:"label"`
	Documentation *MarkupContent `json:"documentation,omitempty"`
}

// signatureHelp shows the signature of the action, function or skill
// whose parentheses hold the cursor, with the argument being typed
// highlighted. It reads the tokens, not the tree: while a call is being
// typed its line does not parse, and the tree has dropped it.
func signatureHelp(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.Document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	callee, argIndex, argName, ok := navCallContext(d.Text, d.Offset(p.Position))
	if !ok {
		return nil, nil
	}
	var sig navSig
	skill := newNavIndex(d).skills[callee]
	switch {
	case check.Actions[callee] != nil:
		sig = navActionSig(check.Actions[callee])
	case skill != nil:
		sig = navSkillSig(skill)
	default:
		fs, isFunc := navFuncSigs()[callee]
		if !isFunc {
			return nil, nil
		}
		sig = navFuncSig(fs)
	}
	info := SignatureInformation{Label: sig.label, Parameters: []ParameterInformation{}}
	if sig.doc != "" {
		info.Documentation = &MarkupContent{Kind: "plaintext", Value: sig.doc}
	}
	for _, prm := range sig.params {
		pi := ParameterInformation{Label: [2]uint32{navUTF16(sig.label[:prm.start]), navUTF16(sig.label[:prm.end])}}
		if prm.doc != "" {
			pi.Documentation = &MarkupContent{Kind: "plaintext", Value: prm.doc}
		}
		info.Parameters = append(info.Parameters, pi)
	}
	return SignatureHelp{Signatures: []SignatureInformation{info}, ActiveParameter: navActiveParam(sig, argIndex, argName)}, nil
}

// navActiveParam is the parameter an argument binds to: by name when it
// is named, else the argIndex-th positional one (the last, when it
// repeats). No parameter is the count of parameters, which the protocol
// reads as none.
func navActiveParam(sig navSig, argIndex int, argName string) uint32 {
	if argName != "" {
		for i, p := range sig.params {
			if p.name == argName {
				return uint32(i)
			}
		}
		return uint32(len(sig.params))
	}
	n := 0
	last := -1
	for i, p := range sig.params {
		if p.namedOnly {
			continue
		}
		if n == argIndex {
			return uint32(i)
		}
		n++
		last = i
	}
	if last >= 0 && navVariadic(sig.params[last]) {
		return uint32(last)
	}
	return uint32(len(sig.params))
}

func navVariadic(p navSigParam) bool { return strings.Contains(p.text, ": ...") }

// navSkillSig is a skill's signature, from its declaration.
func navSkillSig(sk *ast.Skill) navSig {
	var ps []navSigParam
	for _, p := range sk.Params {
		if p == nil || p.Type == nil {
			continue
		}
		ps = append(ps, navSigParam{name: p.Name.Name, text: p.Name.Name + ": " + p.Type.String()})
	}
	return navBuildSig(sk.Name.Name, ps, types.VoidT, "skill "+sk.Name.Name+", declared at line "+strconv.Itoa(sk.Name.Range.Start.Line))
}

// navCallContext finds, from the tokens before off, the call whose "("
// is still open there: the callee's name, the index of the argument the
// cursor is in and, for a named argument, its name. It stops at a brace:
// a call never spans statements.
func navCallContext(text []byte, off int) (callee string, argIndex int, argName string, ok bool) {
	// The text after the cursor does not matter: lex only what is before.
	toks := syntax.Tokens(text[:max(0, min(off, len(text)))])
	tokText := func(t syntax.Token) string { return string(text[t.Offset:t.End]) }
	depth, commas, argStart := 0, 0, -1
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.Kind == syntax.TokenComment && t.End >= off {
			return "", 0, "", false // the cursor is in a comment
		}
		if t.Kind != syntax.TokenOp {
			continue
		}
		switch tokText(t) {
		case ")", "]":
			depth++
		case "[":
			if depth == 0 {
				return "", 0, "", false // in a list, not an argument
			}
			depth--
		case "{", "}":
			return "", 0, "", false
		case ",":
			if depth == 0 {
				commas++
				if argStart < 0 {
					argStart = i + 1
				}
			}
		case "(":
			if depth > 0 {
				depth--
				continue
			}
			if argStart < 0 {
				argStart = i + 1
			}
			if i == 0 || toks[i-1].Kind != syntax.TokenIdent || i >= 2 && tokText(toks[i-2]) == "." {
				return "", 0, "", false // a dependency's inputs, a method, grouping
			}
			if argStart+1 < len(toks) && toks[argStart].Kind == syntax.TokenIdent && tokText(toks[argStart+1]) == ":" {
				argName = tokText(toks[argStart])
			}
			return tokText(toks[i-1]), commas, argName, true
		}
	}
	return "", 0, "", false
}

// navUTF16 is the length of s in UTF-16 units.
func navUTF16(s string) uint32 { return uint32(len(utf16.Encode([]rune(s)))) }
