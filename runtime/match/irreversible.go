package match

import (
	"strings"
	"unicode"
)

// irreversibleWords are the words of an element whose action cannot be
// undone by going back: it sends, deletes or spends something. They are
// the one list both exploration (runtime/explore, which never takes such
// an action unconfirmed) and the settling of twins (ties.go, which never
// guesses between two such controls) read; a project's knowledge base
// (stdlib/kb, irreversible = […]) adds its app's words to it.
var irreversibleWords = []string{
	"submit", "send", "delete", "remove", "pay", "buy", "purchase", "checkout", "transfer",
	"erase", "wipe", "uninstall", "unsubscribe", "discard", "post", "publish",
	"place order", "order now", "confirm purchase", "confirm payment", "factory reset",
}

// Irreversible says why acting on an element whose words (name, label,
// text, id, description, joined) are text could not be undone, or ""
// when it could: text carries a word of the built-in list or of extra
// (the knowledge base's words, or the caller's). A word matches a whole
// word of text (with a plural s dropped), a phrase matches consecutive
// words.
func Irreversible(text string, extra ...string) string {
	joined := " " + strings.Join(wordsOf(text), " ") + " "
	for _, list := range [][]string{irreversibleWords, extra} {
		for _, w := range list {
			phrase := " " + strings.Join(wordsOf(w), " ") + " "
			if phrase != "  " && strings.Contains(joined, phrase) {
				return "its words say " + strings.TrimSpace(w)
			}
		}
	}
	return ""
}

// Words is s as the words Irreversible compares: lower case, letters and
// digits, a plural s dropped. Exploration ranks by the same words.
func Words(s string) []string { return wordsOf(s) }

// wordsOf splits s into lower-case words of letters and digits, a plural
// s dropped ("Deletes" reads "delete"; "address" keeps its s).
func wordsOf(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range f {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			f[i] = w[:len(w)-1]
		}
	}
	return f
}
