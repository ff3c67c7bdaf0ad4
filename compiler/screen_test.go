package compiler

import (
	"github.com/cogflow/cogflow/lang/printer"
	"strings"
	"testing"
)

// TestScreenSecretAndLiteral: a value shown on the screen is not read
// from there when it goes into a password field (it stays a secret input,
// out of the workflow, the warnings and the evidence), nor when the
// compilation is literal (Options.Literal: the replay baseline).
func TestScreenSecretAndLiteral(t *testing.T) {
	const page = `text #query | Log in as "ann" with the password "hunter22x".
textbox #user @User
textbox #pw @Password
button #submit | Log in
`
	for _, tt := range []struct {
		name    string
		literal bool
		want    []string
		notWant []string
	}{
		{"secret", false, []string{`input password: secret`, `regex("\"([^\"]+)\"", text(id: "query").text)`, `example: "ann"`}, []string{"hunter22x"}},
		{"literal", true, []string{`input user: text = "ann"`, `input password: secret`}, []string{"hunter22x", "regex(", "example:"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			snap, err := screenSpec(page)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := screenTrace(snap, []typing{{"#user", "ann"}, {"#pw", "hunter22x"}})
			if err != nil {
				t.Fatal(err)
			}
			for i := range tr.Events {
				if e := &tr.Events[i]; e.Target != nil && e.Target.Ref == snap.Elements[2].Ref {
					e.Target.Secret = true
				}
			}
			res, err := Compile(tr, Options{Literal: tt.literal})
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Source)
			}
			assertSource(t, string(res.Source), tt.want, tt.notWant)
			all := strings.Join(res.Warnings.Messages(), "\n") + strings.Join(explainLines(res.Evidence), "\n")
			for _, e := range res.Evidence {
				all += e.Value + strings.Join(e.Found, "") + strings.Join(e.Consistent, "")
			}
			if strings.Contains(all, "hunter22x") {
				t.Errorf("the password leaked into warnings or evidence: %s", all)
			}
			if tt.literal && len(res.Evidence) > 0 {
				t.Errorf("a literal compilation searched the screen: %v", res.Evidence)
			}
		})
	}
}

// TestScreenList: a list of values the demonstration acted on ("Select
// Ann, Bo and Cy") is read from the enumeration in the instruction, as a
// set (the page's order), and the program gives another instance's list;
// without an enumeration, or literally, there is none.
func TestScreenList(t *testing.T) {
	requireFuncs(t, "split_list")
	const page = `text #query | Select Ann, Bo and Cy and click Submit.
element #list
  checkbox #c1 | Bo
  checkbox #c2 | Ann
  checkbox #c3 | Cy
  checkbox #c4 | Dee
button #submit | Submit
`
	for _, tt := range []struct {
		name    string
		values  []string
		literal bool
		want    string
	}{
		{"page order", []string{"Bo", "Ann", "Cy"}, false, `split_list(regex("Select (.+?) and click", text(id: "query").text))`},
		{"not named", []string{"Bo", "Dee"}, false, ""},
		{"literal", []string{"Bo", "Ann", "Cy"}, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			snap, err := screenSpec(page)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := screenTrace(snap, nil)
			if err != nil {
				t.Fatal(err)
			}
			c := &compiler{tr: tr, literal: tt.literal}
			c.ops = extractOps(tr)
			c.enrich()
			for i, in := range c.infos {
				in.name = "op" + string(rune('1'+i))
			}
			e, ok := c.screenList(len(c.infos)-1, tt.values)
			got := ""
			if ok {
				got = printer.ExprString(e)
			}
			if got != tt.want {
				t.Fatalf("screenList = %s, want %s", got, tt.want)
			}
			if !ok {
				return
			}
			other, _ := screenSpec(strings.Replace(page, "Select Ann, Bo and Cy", "Select Dee or Ann", 1))
			v, err := evalOn(e, &other)
			if err != nil {
				t.Fatal(err)
			}
			var items []string
			for _, x := range v.AsValueSlice() {
				items = append(items, x.AsString())
			}
			if strings.Join(items, "|") != "Dee|Ann" {
				t.Errorf("on another instance: %q", items)
			}
		})
	}
}

// TestWeakPattern: a regex over a screen text finds its value by context
// (quotes, a label, words, an anchor), not by where this text happens to
// put it.
func TestWeakPattern(t *testing.T) {
	for _, tt := range []struct {
		pat, text, value string
		weak             bool
	}{
		{`"([^"]+)"`, `Enter "Kasey" into the field.`, "Kasey", false},
		{`Total: ([0-9.]+)`, "Total: 12.50", "12.50", false},
		{`(\pL+)\.$`, "Lorem ipsum sem.", "sem", false},
		{`Type (.+?) into`, "Type blue into the box", "blue", false},
		{` (\pL+)`, "Type tangerine into the box", "tangerine", true},
		{`, (\pL+)`, "Nibh, vitae amet, vitae.", "vitae", true},
		{`[0-9]+`, "Room 12 on floor 3", "12", true},
		{`[0-9]+`, "Room 12", "12", false},
	} {
		e := call("regex", str(tt.pat), ref(screenRef))
		if got := weakPattern(e, tt.text, tt.value); got != tt.weak {
			t.Errorf("weakPattern(%q on %q) = %v, want %v", tt.pat, tt.text, got, tt.weak)
		}
	}
}

// TestNumbersFamilyEvidence: arithmetic among the numbers a text shows is
// evidence; one number and a constant is a coincidence.
func TestNumbersFamilyEvidence(t *testing.T) {
	for _, tc := range []struct {
		text, value string
		want        bool
	}{
		{"What is 17 plus 25?", "42", true},
		{"Multiply 6 by 7 and enter the result.", "42", true},
		{"Guess the number between 0-9 and press Submit.", "4", false},
		{"Pick a number from 1 to 20.", "12", false},
	} {
		got := numbersFamily(tc.text, tc.value) != nil
		if got != tc.want {
			t.Errorf("numbersFamily(%q, %q) found a program: %v, want %v", tc.text, tc.value, got, tc.want)
		}
	}
}
