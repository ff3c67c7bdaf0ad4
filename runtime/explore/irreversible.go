package explore

import (
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/match"
)

// Irreversible says why acting on the element could not be undone, or ""
// when it could: its name, text, id or description carries a word of
// match's irreversible list or of extra (the knowledge base's words, or the
// caller's).
func Irreversible(e *driver.Element, extra ...string) string {
	if e.Editable {
		return "" // typing into a field is undone by clearing it
	}
	// The one list of such words lives in runtime/match, which settles
	// ties and must never guess between two such controls either.
	return match.Irreversible(strings.Join([]string{e.Name, e.Label, e.Text, e.ID, e.Description}, " "), extra...)
}
