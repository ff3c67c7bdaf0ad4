package trace

// modifierKeys are the Key.Key values of keys that only ever modify
// another: pressed alone they type nothing and are no step.
var modifierKeys = map[string]bool{"Control": true, "Shift": true, "Alt": true, "Meta": true, "AltGraph": true, "CapsLock": true}

// ModifierKey reports whether key (a Key.Key, as the DOM's
// KeyboardEvent.key names it) is a modifier key: recorders leave such a
// key press out, and the compiler makes no step of one.
func ModifierKey(key string) bool { return modifierKeys[key] }
