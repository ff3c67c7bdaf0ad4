package kb

import (
	"bytes"

	"github.com/hashicorp/hcl/v2"
)

// The irreversible attribute lists the words of an element whose action
// cannot be undone by going back: exploration (runtime/explore) takes such
// an action only when a person confirms it. The engine has its own list;
// a project adds its app's words here (a "Settle" button, "Archiver").

// irreversible decodes the optional irreversible attribute: a list of
// non-empty words or phrases.
func (p *parser) irreversible(attr *hcl.Attribute) []string {
	words, _ := p.nonEmptyStrings(attr, "Empty word", "An irreversible word must not be empty.")
	return words
}

// formatIrreversible writes the attribute, one word a line; nothing when
// there are none.
func formatIrreversible(b *bytes.Buffer, words []string) {
	if len(words) == 0 {
		return
	}
	b.WriteString("\nirreversible = [\n")
	for _, w := range words {
		b.WriteString("  " + quote(w) + ",\n")
	}
	b.WriteString("]\n")
}
