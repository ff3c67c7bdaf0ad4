package explore

import (
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// irreversibleWords are the words of an element whose action cannot be
// undone by going back: it sends, deletes or spends something. A word
// matches a whole word of the element (with a plural s dropped), a phrase
// matches consecutive words.
var irreversibleWords = []string{
	"submit", "send", "delete", "remove", "pay", "buy", "purchase", "checkout", "transfer",
	"erase", "wipe", "uninstall", "unsubscribe", "discard", "post", "publish",
	"place order", "order now", "confirm purchase", "confirm payment", "factory reset",
}

// Irreversible says why acting on the element could not be undone, or ""
// when it could: its name, text, id or description carries a word of
// irreversibleWords or of extra (the knowledge base's words, or the
// caller's).
func Irreversible(e *driver.Element, extra ...string) string {
	// Stop words stay: "place order" must not match "Place" … "order".
	ws := tokens(strings.Join([]string{e.Name, e.Label, e.Text, e.ID, e.Description}, " "), false)
	if e.Editable {
		return "" // typing into a field is undone by clearing it
	}
	joined := " " + strings.Join(ws, " ") + " "
	for _, list := range [][]string{irreversibleWords, extra} {
		for _, w := range list {
			phrase := " " + strings.Join(tokens(w, false), " ") + " "
			if phrase != "  " && strings.Contains(joined, phrase) {
				return "its words say " + strings.TrimSpace(w)
			}
		}
	}
	return ""
}
