package action

import "strings"

// Modifier is a modifier key of a chord (the keys argument of key), in its
// canonical spelling.
type Modifier string

// The modifiers a chord may hold.
const (
	Ctrl  Modifier = "Ctrl"
	Alt   Modifier = "Alt"
	Shift Modifier = "Shift"
	Meta  Modifier = "Meta"
)

// modifierWords are the words a chord may spell each modifier with, lower
// case: the one table the checker and every driver read (each driver maps
// the four modifiers to its own key codes).
var modifierWords = map[string]Modifier{
	"ctrl": Ctrl, "control": Ctrl,
	"alt": Alt, "option": Alt,
	"shift": Shift,
	"meta":  Meta, "cmd": Meta, "command": Meta, "super": Meta, "win": Meta,
}

// ModifierOf returns the modifier a chord's word names, ignoring case
// ("ctrl", "Control" and "CTRL" are all Ctrl), or "" when the word names
// none.
func ModifierOf(word string) Modifier {
	return modifierWords[strings.ToLower(strings.TrimSpace(word))]
}
