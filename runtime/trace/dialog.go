package trace

// Event kinds of native dialogs and file choosers.
const (
	KindDialog Kind = "dialog" // a native dialog (alert, confirm, prompt, beforeunload) was answered
	KindUpload Kind = "upload" // files were chosen for a file input
)

// Dialog types, for Dialog.Type.
const (
	DialogAlert        = "alert"
	DialogConfirm      = "confirm"
	DialogPrompt       = "prompt"
	DialogBeforeUnload = "beforeunload"
)

var dialogTypes = []string{DialogAlert, DialogConfirm, DialogPrompt, DialogBeforeUnload}

// Dialog is a native dialog and how the person answered it.
type Dialog struct {
	// Type is alert, confirm, prompt or beforeunload.
	Type string `json:"type"`
	// Message is the dialog's text.
	Message string `json:"message,omitempty"`
	// Accept is set when the person accepted (OK, Leave); false means
	// dismissed (Cancel, Stay).
	Accept bool `json:"accept,omitempty"`
	// Prompt is the text a prompt was accepted with.
	Prompt string `json:"prompt,omitempty"`
}
