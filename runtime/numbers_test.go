package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want float64
		err  string
	}{
		{"42", 42, ""},
		{" -1.5e3 ", -1500, ""},
		{"1e-400", 0, ""},
		{"NaN", 0, `"NaN" is not a finite number`},
		{"nan", 0, "not a finite number"},
		{"Inf", 0, `"Inf" is not a finite number`},
		{"-Infinity", 0, "not a finite number"},
		{"+inf", 0, "not a finite number"},
		{"1e400", 0, `"1e400" is too large a number`},
		{"-1e400", 0, "too large a number"},
		{"0x1p-2", 0.25, ""},
		{"twelve", 0, `"twelve" is not a number`},
		{"", 0, "is not a number"},
	} {
		f, err := runtime.ParseNumber(tc.raw)
		if tc.err == "" {
			if err != nil || f != tc.want {
				t.Errorf("ParseNumber(%q) = %v, %v; want %v", tc.raw, f, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseNumber(%q) = %v, %v; want an error with %q", tc.raw, f, err, tc.err)
		}
	}
}

// TestNonFiniteNumbers: NaN and Inf given as a number input, answered at
// --ask, or a wait out of range computed at run time are clear errors,
// never a panic, an endless wait or no wait at all.
func TestNonFiniteNumbers(t *testing.T) {
	const withInput = `task t "Wait a while" {
  driver browser
  input pause: number = 1
  op1 = wait(pause)
}`
	const asked = `task t "Wait a while" {
  driver browser
  op1 = wait(calculate<"how long to wait">("x"))
}`
	const negative = `task t "Wait a while" {
  driver browser
  input pause: number = 1
  op1 = wait(0 - pause)
}`
	for _, tc := range []struct {
		name, src string
		inputs    map[string]string
		answers   []string
		want      string // "" for success
		asked     int
	}{
		{name: "NaN input", src: withInput, inputs: map[string]string{"pause": "NaN"}, want: `input pause: "NaN" is not a finite number`},
		{name: "Inf input", src: withInput, inputs: map[string]string{"pause": "Inf"}, want: `input pause: "Inf" is not a finite number`},
		{name: "too long", src: withInput, inputs: map[string]string{"pause": "1e9"}, want: "wait must be from 0 to 86400 seconds, not 1000000000"},
		{name: "negative", src: negative, want: "wait must be from 0 to 86400 seconds, not -1"},
		{name: "NaN at --ask, then a number", src: asked, answers: []string{"NaN", "inf", "0"}, asked: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file, task, info := load(t, tc.src)
			f := drivertest.New(&driver.Tree{Title: "x"})
			person := &answers{lines: tc.answers}
			_, err := runtime.New(file, task, info, f, runtime.Options{Inputs: tc.inputs,
				Answerers: []dependency.Answerer{runtime.AskAnswerer{P: person}}}).Run(context.Background())
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if len(person.asked) != tc.asked {
				t.Fatalf("asked %d times, want %d", len(person.asked), tc.asked)
			}
			if tc.asked > 1 && !strings.Contains(person.asked[1], `"NaN" is not a finite number; answer again`) {
				t.Errorf("the second question does not say why:\n%s", person.asked[1])
			}
			for _, a := range f.Log {
				if a.Op == "wait" && tc.want != "" {
					t.Errorf("the driver was asked to wait %v", a.Number)
				}
			}
		})
	}
}
