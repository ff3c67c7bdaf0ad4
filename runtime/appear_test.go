package runtime_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestTargetAppearsLate: a step whose target appears shortly after the
// previous step (a suggestion menu shown on a timer) finds it; one whose
// target never appears fails with "no element matches" once the grace, or
// the step's shorter timeout, is over; an ambiguity fails at once.
func TestTargetAppearsLate(t *testing.T) {
	defer runtime.SetAppearGrace(time.Second)()
	tests := []struct {
		name, step string
		want       string // "" for success
		min, max   time.Duration
	}{
		{"appears after 300 ms", `op2 = click(listitem(text: "Iran"))`, "", 250 * time.Millisecond, 900 * time.Millisecond},
		{"never appears: the grace", `op2 = click(listitem(text: "Iraq"))`, `no element matches listitem(text: "Iraq")`, time.Second, 2 * time.Second},
		{"never appears: a shorter timeout", `op2 = click(listitem(text: "Iraq"), timeout: 0.2)`, `no element matches listitem(text: "Iraq")`, 200 * time.Millisecond, 700 * time.Millisecond},
		{"ambiguous: at once", `op2 = click(button(name: "Save"))`, `is ambiguous`, 0, 200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := drivertest.New(&driver.Tree{Elements: []*driver.Element{
				field("tags", "Tags", "tags"), el("s1", "button", "Save"), el("s2", "button", "Save"),
			}})
			var shown atomic.Bool
			f.OnClick["tags"] = func(f *drivertest.Fake, _ *driver.Element) {
				time.AfterFunc(300*time.Millisecond, func() {
					tree := f.Tree()
					item := el("m1", "listitem", "")
					item.Text = "Iran"
					els := append(append([]*driver.Element(nil), tree.Elements...), item)
					f.SetTree(&driver.Tree{URL: tree.URL, Title: tree.Title, Elements: els})
					shown.Store(true)
				})
			}
			file, task, info := load(t, "task t {\n  driver browser\n  op1 = click(textbox(id: \"tags\"))\n  "+tt.step+"\n}")
			start := time.Now()
			_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
			took := time.Since(start)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.want == "" && (len(f.Log) != 2 || f.Log[1].Target == nil || f.Log[1].Target.Ref != "m1"):
				t.Fatalf("actions %+v, want a click on m1", f.Log)
			case tt.want == "" && !shown.Load():
				t.Fatal("clicked before the item was shown")
			case tt.want != "":
				var stepErr *runtime.StepError
				if !errors.As(err, &stepErr) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want a step error with %q", err, tt.want)
				}
			}
			if took < tt.min || took > tt.max {
				t.Errorf("took %v, want between %v and %v", took, tt.min, tt.max)
			}
		})
	}
}
