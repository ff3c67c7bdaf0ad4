// Package knowledge keeps what exploration learned about an app or a site,
// so that the next exploration starts from it: environment knowledge (screen
// states and the transitions an action causes), task knowledge (commands,
// their intents and parameters) and execution knowledge (the shortest path
// that reached a goal, and short lessons drawn from wrong paths).
//
// The store is one bbolt file in the project's .cogflow directory. It is
// pure Go because the Windows build is cross-compiled with cgo off.
package knowledge

import "time"

// Kinds of entry, as `cogflow knowledge list` shows them.
const (
	KindEnvironment = "environment" // a transition between screen states
	KindTask        = "task"        // a command, its intent and parameters
	KindExecution   = "execution"   // the shortest path that reached a goal
	KindLesson      = "lesson"      // what a wrong path taught
)

// Transition says that an action on one screen state led to another. State
// keys come from StateKey; they ignore values typed into fields.
type Transition struct {
	App    string // site origin ("http://127.0.0.1:8088") or Android package
	From   string // state key before the action
	Action Step   // what was done
	To     string // state key after the action
	// Undo is how exploration came back, when it had to ("back", "close",
	// "collapse", "clear"); empty when it never did.
	Undo  string
	Count int       // how many times it was seen
	Seen  time.Time // last time it was seen
}

// Step is one operation of a path, in the language's own words so that a
// path can become .cog text or a trace.
type Step struct {
	Op string // an action name of lang/action: click, type, key, …
	// Target is the element description in .cog syntax, e.g.
	// `button(name: "Import")`; empty for actions without a target.
	Target string
	// Text is typed text or a key chord. A value that came from a
	// parameter is written {name}, so a replay fills in the new value.
	// Secrets are never stored.
	Text string
}

// Task is a command a person gave, with its intent and parameters.
type Task struct {
	App     string
	Command string            // the command as given, e.g. "import contacts from a file"
	Intent  string            // the command with its parameters abstracted
	Params  map[string]string // parameter name → the value last used
	Saved   time.Time
}

// Path is the shortest operation sequence known to reach a command's goal.
type Path struct {
	App     string
	Command string
	Steps   []Step
	Saved   time.Time
}

// Lesson is a short sentence a wrong path taught, model-written.
type Lesson struct {
	App     string
	Command string
	Text    string
	Saved   time.Time
}

// Entry is one stored item as `cogflow knowledge list` shows it.
type Entry struct {
	ID      string // stable, for show and forget
	Kind    string // one of the Kind constants
	App     string
	Summary string // one line
	Saved   time.Time
}
