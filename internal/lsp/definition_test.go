package lsp

import (
	"sort"
	"strings"
	"testing"
)

// navMark is a place in a test file: the skip-th byte of the n-th
// occurrence of marker.
type navMark struct {
	marker  string
	n, skip int
}

func (m navMark) at(t *testing.T, text string) Position { return navAt(t, text, m.marker, m.n, m.skip) }

func TestDefinition(t *testing.T) {
	cases := []struct {
		name string
		from navMark
		want *navMark // nil: no definition
	}{
		{"input after emoji", navMark{"keyword)", 0, 2}, &navMark{"keyword:", 0, 0}},
		{"anchor", navMark{"box,", 0, 1}, &navMark{"box =", 0, 0}},
		{"step after emoji", navMark{"(op4))", 0, 2}, &navMark{"op4 =", 0, 0}},
		{"step at its end", navMark{"(op2))", 0, 4}, &navMark{"op2 =", 0, 0}},
		{"loop variable", navMark{"row.cell", 0, 0}, &navMark{"row in", 0, 0}},
		{"loop variable as argument", navMark{"greet(row", 0, 7}, &navMark{"row in", 0, 0}},
		{"skill", navMark{"greet(row", 0, 0}, &navMark{"greet(who", 0, 0}},
		{"parameter", navMark{"who, name", 0, 1}, &navMark{"who:", 0, 0}},
		{"parameter 2", navMark{"name)\n}", 0, 0}, &navMark{"name: text)", 0, 0}},
		{"declaration itself", navMark{"op2 =", 0, 1}, &navMark{"op2 =", 0, 0}},
		{"attribute name", navMark{`name: "é 中`, 0, 1}, nil},
		{"action", navMark{"type(box", 0, 1}, nil},
		{"string", navMark{"Title", 0, 1}, nil},
	}
	for _, src := range []struct{ name, text string }{{"ok", navSrc}, {"syntax error", navBroken}} {
		c := newTestClient(t, "", Options{})
		uri := c.open("h.cog", src.text)
		for _, tc := range cases {
			t.Run(src.name+"/"+tc.name, func(t *testing.T) {
				var loc *Location
				c.request("textDocument/definition", navPosParams(uri, tc.from.at(t, src.text)), &loc)
				if tc.want == nil {
					if loc != nil {
						t.Fatalf("definition %+v, want null", loc)
					}
					return
				}
				if loc == nil || loc.URI != uri || loc.Range.Start != tc.want.at(t, src.text) {
					t.Fatalf("definition %+v, want %s at %+v", loc, tc.want.marker, tc.want.at(t, src.text))
				}
			})
		}
	}
}

func TestReferences(t *testing.T) {
	cases := []struct {
		name string
		from navMark
		decl navMark
		uses []navMark
	}{
		{"input", navMark{"keyword:", 0, 1}, navMark{"keyword:", 0, 0}, []navMark{{"keyword)", 0, 0}, {"keyword)", 1, 0}}},
		{"step from a use", navMark{"(op2))", 0, 1}, navMark{"op2 =", 0, 0}, []navMark{{"(op2))", 0, 1}}},
		{"step used after emoji", navMark{"op4 =", 0, 0}, navMark{"op4 =", 0, 0}, []navMark{{"(op4))", 0, 1}}},
		{"skill", navMark{"greet(who", 0, 0}, navMark{"greet(who", 0, 0}, []navMark{{"greet(row", 0, 0}}},
		{"loop variable", navMark{"row in", 0, 0}, navMark{"row in", 0, 0}, []navMark{{"row.cell", 0, 0}, {"greet(row", 0, 6}}},
	}
	for _, src := range []struct{ name, text string }{{"ok", navSrc}, {"syntax error", navBroken}} {
		c := newTestClient(t, "", Options{})
		uri := c.open("h.cog", src.text)
		for _, tc := range cases {
			for _, incl := range []bool{false, true} {
				var locs []Location
				params := navPosParams(uri, tc.from.at(t, src.text))
				params["context"] = map[string]any{"includeDeclaration": incl}
				c.request("textDocument/references", params, &locs)
				want := append([]navMark(nil), tc.uses...)
				if incl {
					want = append(want, tc.decl)
				}
				var wantPos []Position
				for _, m := range want {
					wantPos = append(wantPos, m.at(t, src.text))
				}
				sort.Slice(wantPos, func(i, j int) bool {
					return wantPos[i].Line < wantPos[j].Line || wantPos[i].Line == wantPos[j].Line && wantPos[i].Character < wantPos[j].Character
				})
				var got []Position
				for _, l := range locs {
					got = append(got, l.Range.Start)
				}
				if len(got) != len(wantPos) {
					t.Errorf("%s/%s includeDeclaration=%v: %v, want %v", src.name, tc.name, incl, got, wantPos)
					continue
				}
				for i := range got {
					if got[i] != wantPos[i] {
						t.Errorf("%s/%s includeDeclaration=%v: %v, want %v", src.name, tc.name, incl, got, wantPos)
						break
					}
				}
			}
		}
	}
}

func TestRename(t *testing.T) {
	// The broken variant's dropped line mentions box: renaming box there
	// would miss that use, so it is refused; other names rename.
	brokenBox := strings.Replace(navSrc, "\n\n  op1", "\n  zz = click(box (((\n  op1", 1)
	cases := []struct {
		name    string
		text    string
		at      navMark
		newName string
		// want is the text after the rename, made by replacing whole words;
		// "" means refused with a message holding refusal.
		from, to string
		refusal  string
	}{
		{"input", navSrc, navMark{"keyword)", 0, 1}, "term", "keyword", "term", ""},
		{"step after emoji", navSrc, navMark{"(op4))", 0, 1}, "summary", "op4", "summary", ""},
		{"anchor", navSrc, navMark{"box =", 0, 0}, "search_box", "box", "search_box", ""},
		{"skill", navSrc, navMark{"greet(row", 0, 0}, "welcome", "greet", "welcome", ""},
		{"loop variable", navSrc, navMark{"row.cell", 0, 0}, "paper", "row", "paper", ""},
		{"a skill's parameter name is free in a task", navSrc, navMark{"keyword:", 0, 0}, "who", "keyword", "who", ""},
		{"in a file with a syntax error elsewhere", navBroken, navMark{"keyword:", 0, 0}, "term", "keyword", "term", ""},
		{"invalid", navSrc, navMark{"op2 =", 0, 0}, "2nd", "", "", "is not a name"},
		{"with a space", navSrc, navMark{"op2 =", 0, 0}, "a b", "", "", "is not a name"},
		{"keyword", navSrc, navMark{"op2 =", 0, 0}, "repeat", "", "", "keyword"},
		{"collides with a step", navSrc, navMark{"op2 =", 0, 0}, "op3", "", "", "op3 is already declared at line 9 (as step op3)"},
		{"collides with an anchor", navSrc, navMark{"keyword)", 0, 0}, "box", "", "", "already declared at line 5 (as anchor box)"},
		{"collides with a step in a loop", navSrc, navMark{"op1 =", 0, 0}, "op6", "", "", "already declared at line 13"},
		{"skill as a function", navSrc, navMark{"greet(who", 0, 0}, "upper", "", "", "name of an action or function"},
		{"skill as the task", navSrc, navMark{"greet(who", 0, 0}, "t", "", "", "as task t"},
		{"a use in the broken line", brokenBox, navMark{"box =", 0, 0}, "field", "", "", "mentions box"},
		{"a name the broken line uses", brokenBox, navMark{"keyword:", 0, 0}, "box", "", "", "already declared"},
		{"not a name", navSrc, navMark{"type(box", 0, 0}, "x", "", "", "no step, input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, "", Options{})
			uri := c.open("h.cog", tc.text)
			params := navPosParams(uri, tc.at.at(t, tc.text))
			params["newName"] = tc.newName
			var edit WorkspaceEdit
			rerr := c.requestErr("textDocument/rename", params, &edit)
			if tc.refusal != "" {
				if rerr == nil || !strings.Contains(rerr.Message, tc.refusal) {
					t.Fatalf("rename to %q: %v, want a refusal saying %q", tc.newName, rerr, tc.refusal)
				}
				return
			}
			if rerr != nil {
				t.Fatalf("rename: %v", rerr)
			}
			got := navApply(t, tc.text, edit.Changes[uri])
			if want := navReplaceWord(tc.text, tc.from, tc.to); got != want {
				t.Fatalf("after rename:\n%s\nwant:\n%s", got, want)
			}
			if tc.text == navSrc {
				uri2 := c.open("renamed.cog", got)
				if ds := c.diagnostics(uri2, 1); len(ds) != 0 {
					t.Errorf("the renamed file has diagnostics: %v", ds)
				}
			}
			// prepareRename agrees on what is renamed.
			var prep struct {
				Range       Range  `json:"range"`
				Placeholder string `json:"placeholder"`
			}
			c.request("textDocument/prepareRename", navPosParams(uri, tc.at.at(t, tc.text)), &prep)
			if prep.Placeholder != tc.from {
				t.Errorf("prepareRename: %+v, want placeholder %s", prep, tc.from)
			}
		})
	}
}

// navApply applies non-overlapping edits to text, last first.
func navApply(t *testing.T, text string, edits []TextEdit) string {
	t.Helper()
	li := NewLineIndex([]byte(text))
	sort.Slice(edits, func(i, j int) bool { return li.Offset(edits[i].Range.Start) > li.Offset(edits[j].Range.Start) })
	for _, e := range edits {
		start, end := li.Offset(e.Range.Start), li.Offset(e.Range.End)
		text = text[:start] + e.NewText + text[end:]
	}
	return text
}

// navReplaceWord replaces every whole word from by to, outside strings
// and comments (the test files have the names nowhere else).
func navReplaceWord(text, from, to string) string {
	var b strings.Builder
	isWord := func(c byte) bool {
		return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	inString, inComment := false, false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case inComment:
			inComment = c != '\n'
		case inString:
			inString = c != '"'
		case c == '#':
			inComment = true
		case c == '"':
			inString = true
		case strings.HasPrefix(text[i:], from) && (i == 0 || !isWord(text[i-1])) && (i+len(from) == len(text) || !isWord(text[i+len(from)])):
			b.WriteString(to)
			i += len(from)
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func TestDocumentHighlight(t *testing.T) {
	cases := []struct {
		name  string
		from  navMark
		write navMark
		reads []navMark
	}{
		{"input from a use after emoji", navMark{"keyword)\n  }", 0, 1}, navMark{"keyword:", 0, 0}, []navMark{{"keyword)", 0, 0}, {"keyword)", 1, 0}}},
		{"parameter", navMark{"who:", 0, 0}, navMark{"who:", 0, 0}, []navMark{{"who, name", 0, 0}}},
	}
	for _, src := range []struct{ name, text string }{{"ok", navSrc}, {"syntax error", navBroken}} {
		c := newTestClient(t, "", Options{})
		uri := c.open("h.cog", src.text)
		for _, tc := range cases {
			var hs []DocumentHighlight
			c.request("textDocument/documentHighlight", navPosParams(uri, tc.from.at(t, src.text)), &hs)
			want := map[Position]int{tc.write.at(t, src.text): highlightWrite}
			for _, r := range tc.reads {
				want[r.at(t, src.text)] = highlightRead
			}
			if len(hs) != len(want) {
				t.Errorf("%s/%s: %+v, want %v", src.name, tc.name, hs, want)
				continue
			}
			for _, h := range hs {
				if want[h.Range.Start] != h.Kind {
					t.Errorf("%s/%s: %+v, want %v", src.name, tc.name, hs, want)
				}
			}
		}
		var none []DocumentHighlight
		c.request("textDocument/documentHighlight", navPosParams(uri, navAt(t, src.text, "type(box", 0, 1)), &none)
		if none != nil {
			t.Errorf("%s: highlight on an action: %+v", src.name, none)
		}
	}
}
