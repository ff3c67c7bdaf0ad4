package match

import "strings"

// submitSynonyms reports whether two names or texts are two different
// words for the control that sends a form: "Submit", "Search", "Go!",
// "Send". Forms of one kind (a search form laid out by one page or
// another) label that control with any of them, and a workflow shown one
// must find the other. It ranks as a containing match, like
// closeSynonyms: a control that reads exactly as written still wins, and
// two controls that both say "send the form" otherwise are ambiguous, so
// the run stops there instead of guessing. Only a whole name counts:
// "Search" in "Movie Search" is a heading's word, not a control's.
func submitSynonyms(a, b string) bool {
	a, b = strings.TrimRight(a, "!.…"), strings.TrimRight(b, "!.…")
	return a != b && submitWords[a] && submitWords[b]
}

// submitWords are the words a form's sending control reads, in lower case.
var submitWords = map[string]bool{"submit": true, "search": true, "go": true, "send": true}
