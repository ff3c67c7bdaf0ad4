package syntax

import (
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	src := "# é note\ntask t \"é 中\" {\n  op1 = click(match_element<\"x\">(a), timeout: 2.5)  # 😀\n  s = \"open"
	want := []string{
		"comment # é note", "keyword task", "ident t", `string "é 中"`, "op {",
		"ident op1", "op =", "ident click", "op (", "ident match_element", `desc <"x">`, "op (", "ident a", "op )",
		"op ,", "ident timeout", "op :", "number 2.5", "op )", "comment # 😀",
		"ident s", "op =", `string "open`,
	}
	names := map[TokenKind]string{TokenComment: "comment", TokenString: "string", TokenDesc: "desc", TokenNumber: "number",
		TokenKeyword: "keyword", TokenIdent: "ident", TokenOp: "op", TokenInvalid: "invalid"}
	var got []string
	for _, tok := range Tokens([]byte(src)) {
		got = append(got, names[tok.Kind]+" "+src[tok.Offset:tok.End])
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tokens:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
