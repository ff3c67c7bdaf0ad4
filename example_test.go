package cogflow_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/trace"
)

// signupSite is the shop's sign-up page, played by the project's fake
// driver: the examples run without a browser.
func signupSite() *drivertest.Fake {
	f := drivertest.New(&driver.Tree{})
	f.Pages["https://shop.example/signup"] = func() *driver.Tree {
		return &driver.Tree{URL: "https://shop.example/signup", Title: "Sign up", Elements: []*driver.Element{
			{Ref: "name", Role: "textbox", Name: "Name", Editable: true, Visible: true, Enabled: true, Parent: -1},
			{Ref: "send", Role: "button", Name: "Send", Text: "Send", Visible: true, Enabled: true, Parent: -1},
		}}
	}
	return f
}

// Load reads, parses and checks a .cog file against the default knowledge
// base; Options.ProjectDir would use a project's own.
func ExampleLoad() {
	w, diags := cogflow.Load("testdata/signup.cog", cogflow.Options{})
	if diags.HasErrors() {
		fmt.Println(diags.Err())
		return
	}
	task, _ := w.Task("")
	fmt.Println(task.Name.Name, len(task.Body.Stmts), "statements")
	// Output: signup 5 statements
}

// Check returns every diagnostic, warnings too; Render prints them the way
// `cogflow check` does.
func ExampleWorkflow_Check() {
	src := []byte(`task t "Send a name" {
  driver browser
  input name: text
  op1 = type(textbox(name: "Name"), nam)
}
`)
	w, _ := cogflow.LoadSource("send.cog", src, cogflow.Options{})
	w.Render(os.Stdout, w.Check())
	// Output:
	// send.cog:3:9: warning: input name is never used
	//     input name: text
	//           ^~~~
	// send.cog:4:37: error: undefined name nam
	//     op1 = type(textbox(name: "Name"), nam)
	//                                       ^~~
	//   = help: did you mean name?
}

// Run drives the UI through a driver: here the project's fake, which
// logs every action. RunOptions.JournalDir would also journal the run.
func ExampleWorkflow_Run() {
	w, diags := cogflow.Load("testdata/signup.cog", cogflow.Options{})
	if diags.HasErrors() {
		fmt.Println(diags.Err())
		return
	}
	site := signupSite()
	res, err := w.Run(context.Background(), cogflow.RunOptions{
		Driver: site,
		Inputs: map[string]string{"name": "Grace"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Stats.Steps, "steps")
	for _, a := range site.Log {
		fmt.Println(a.Op, a.Text)
	}
	// Output:
	// 3 steps
	// open https://shop.example/signup
	// type Grace
	// click
}

// A failed run tells its cause with errors.As: the step and its position,
// and (inside it) the description no element matched.
func ExampleWorkflow_Run_stepError() {
	w, _ := cogflow.LoadSource("pay.cog", []byte(`task pay "Pay" {
  driver browser
  op1 = open("https://shop.example/signup")
  op2 = click(button(name: "Pay now"))
}
`), cogflow.Options{})
	_, err := w.Run(context.Background(), cogflow.RunOptions{Driver: signupSite()})
	var stepErr *cogflow.StepError
	var anchorErr *cogflow.AnchorError
	if errors.As(err, &stepErr) && errors.As(err, &anchorErr) {
		fmt.Println(stepErr.Position(), stepErr.StepName(), "found no", anchorErr.Locator)
	}
	// Output:
	// pay.cog:4:3 op2 found no button(name: "Pay now")
}

// Cost estimates the model calls, tokens and dollars of a run, without
// running it.
func ExampleWorkflow_Cost() {
	w, _ := cogflow.LoadSource("intro.cog", []byte(`task intro "Summarize a page's introduction" {
  driver browser
  op1 = open("https://wiki.example/Kilimanjaro")
  op2 = select_text(extract_information<"the introductory paragraph">())
  op3 = type(textbox(name: "Notes"), summarize<"summarize in one sentence">(op2))
}
`), cogflow.Options{})
	est, err := w.Cost("", cogflow.CostModels{Text: "gpt-4o-mini", Element: "gpt-4o-mini"})
	if err != nil {
		fmt.Println(err)
		return
	}
	est.Write(os.Stdout, cogflow.Iterations{})
	// Output:
	// task intro: 2 cognitive dependencies
	//
	// line  step  once per  dependency                                         category                   model        LLM calls  tokens per call
	// 4     op2   run       extract_information<"the introductory paragraph">  information_recall         gpt-4o-mini  1          ~1500 in, ~150 out
	// 5     op3   run       summarize<"summarize in one sentence">             information_comprehension  gpt-4o-mini  1          ~1200 in, ~120 out
	//
	// Total: 2 LLM calls
	// Tokens: ~2700 in / ~270 out (a rough figure per main category; cache hits cost nothing)
	// Cost: ~$0.0006 at list prices of 2025-08
}

// Compile turns a recorded demonstration into a workflow; without a model
// (CompileOptions.LLM) it uses its rules only.
func ExampleCompile() {
	tr, err := trace.Load("testdata/signup.trace.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := cogflow.Compile(tr, cogflow.CompileOptions{Filename: "signup.cog"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s", res.Source)
	// Output:
	// # Compiled from a recorded demonstration by cogflow compile (rules only, no LLM). Edit freely; `cogflow fmt` keeps the layout.
	// task sign_up "Sign up" {
	//   driver browser
	//   input name: text = "Ada"
	//
	//   op1 = open("https://shop.example/signup")            # e1
	//   op2 = type(textbox(name: "Name", id: "name"), name)  # e2, e3
	//   op3 = click(button(name: "Send"))                    # e4
	// }
}

// greeter is a stand-in for a model: it answers every text dependency
// with a greeting for its first input.
type greeter struct{}

func (greeter) Name() string { return "greeter" }

func (greeter) Answer(_ context.Context, r *cogflow.Request) (*cogflow.Answer, error) {
	return &cogflow.Answer{Text: "Welcome, " + r.Inputs[0] + "!"}, nil
}

// Answerers answer the cognitive dependencies that no exact match answers:
// a model in production (ModelAnswerer), a stand-in here.
func ExampleWorkflow_Run_answerer() {
	w, _ := cogflow.LoadSource("greet.cog", []byte(`task greet "Greet a new customer" {
  driver browser
  input customer: text = "Grace"
  op1 = open("https://shop.example/signup")
  op2 = type(textbox(name: "Name"), generate<"a short greeting for the customer">(customer))
}
`), cogflow.Options{})
	site := signupSite()
	_, err := w.Run(context.Background(), cogflow.RunOptions{Driver: site, Answerers: []cogflow.Answerer{greeter{}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(site.Tree().Elements[0].Value)
	// Output:
	// Welcome, Grace!
}

// CompileAll merges demonstrations of one task: here one closed a
// newsletter dialog and the other never saw it, so closing it becomes an
// if on the dialog's button.
func ExampleCompileAll() {
	files := []string{"testdata/offer-dialog.trace.json", "testdata/offer.trace.json"}
	var trs []*trace.Trace
	for _, f := range files {
		tr, err := trace.Load(f)
		if err != nil {
			fmt.Println(err)
			return
		}
		trs = append(trs, tr)
	}
	res, err := cogflow.CompileAll(trs, cogflow.CompileOptions{Filename: "offer.cog", Traces: files})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(res.Source))
	// Output:
	// # Compiled from offer-dialog.trace.json, offer.trace.json (2 demonstrations merged) by cogflow compile (rules only, no LLM). Edit freely; `cogflow fmt` keeps the layout.
	// task recorded_task "Replay the recorded demonstration" {
	//   driver browser
	//
	//   op1 = open("http://127.0.0.1:8088/offer?seed=1")  # e1
	//   # Only demonstration 1 did this.
	//   if visible(button(name: "No thanks", id: "dlg-close")) {
	//     op2 = click(button(name: "No thanks", id: "dlg-close"))  # e2
	//   }
	//   op3 = click(button(name: "Continue", id: "go"))  # e3, e4
	// }
}
