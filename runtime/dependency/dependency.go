// Package dependency defines the question a cognitive dependency asks at
// run time and the answerers that reply to it: the contract between the
// interpreter's cascade (package runtime) and the answerers plugged into it
// (the model, a person at the terminal, a test's script). It exists so that
// an answerer does not import the interpreter it serves.
package dependency

import (
	"context"
	"time"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Request is a cognitive dependency that a run must answer now.
type Request struct {
	Step        string
	Line        int
	Main, Sub   string
	Description string
	Result      types.Type // text, number or element
	Goal        string     // the task's goal sentence
	// Inputs are the dependency's input values, rendered as text. The
	// checker guarantees no secret is among them.
	Inputs []string
	// Candidates are the elements an element result may be chosen from:
	// the visible, actionable elements of the page, in page order — or
	// of Scope only, when the dependency says within:.
	Candidates []*driver.Element
	// Scope is the element a choice is made inside (within:), nil when
	// the whole screen is open.
	Scope *driver.Element
	// Tree is the screen when the dependency is answered; candidates come
	// from it.
	Tree *driver.Tree
	// ScreenText is the screen's whole visible text, for dependencies
	// that read information off the screen (extract_information); empty
	// when the driver cannot give it.
	ScreenText string
}

// Answer is a answerer's answer; exactly one of Text, Number and Element
// fits Result. The rest says what it cost, for the journal.
type Answer struct {
	Text    string
	Number  float64
	Element *driver.Element

	Model     string
	TokensIn  int
	TokensOut int
	CostUSD   float64
	Calls     int           // model requests made, retries and repairs included
	Latency   time.Duration // time spent waiting for the model
	Cached    bool          // answered from the cache
	// CachedAt is when a cached answer was stored (zero when not Cached).
	CachedAt time.Time
	// CacheKey names the cache entry that holds the answer, served or
	// freshly stored; "" when none does. A Forgetter forgets it by this.
	CacheKey string
}

// Answerer answers dependencies. It returns (nil, nil) when it has no
// answer, so that the next answerer in the cascade is tried.
type Answerer interface {
	// Name is what the journal records as the value's source.
	Name() string
	Answer(ctx context.Context, r *Request) (*Answer, error)
}

// Forgetter is an answerer that keeps answers between runs (the answer
// cache) and can forget one. A step that fails forgets the answers its
// arguments used, so that the next run asks again rather than failing the
// same way on a wrong or stale answer.
type Forgetter interface {
	Forget(a *Answer) error
}
