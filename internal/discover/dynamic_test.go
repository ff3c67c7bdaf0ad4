package discover

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reply is a mutating skill with a secret parameter: it replies to a
// message of the demo mail with a PIN.
func reply(base string) Proposal {
	return Proposal{
		Name: "reply_with_pin", Description: "Reply to the first message, confirmed with a PIN.",
		Params: []Param{{"body", "text"}, {"pin", "secret"}},
		ParameterSets: []map[string]any{{"body": "Thanks!", "pin": "4711"}, {"body": "See you Monday", "pin": "9042"},
			{"body": "Got it", "pin": "1357"}},
		Steps: "skill reply_with_pin(body: text, pin: secret) {\n  s1 = open(\"" + base + "/mail/2\")\n" +
			"  s2 = click(button(name: \"Reply\"))\n  s3 = type(textbox(name: \"Reply\"), body)\n" +
			"  s4 = type(textbox(name: \"PIN\"), pin)\n  s5 = click(button(name: \"Send\"))\n}",
		Effect:     Mutating,
		FinalState: FinalState{URLContains: "sent=1", Shows: []string{"Reply sent."}},
	}
}

// A mutating skill runs only on a target named safe. There it is
// validated on its three sets, and what is written holds no secret: the
// PINs are neither in the skill file nor in its sidecar.
func TestDynamicMutatingSecret(t *testing.T) {
	s, base := demoSite(t)
	d := openBrowser(t)
	c, why := Static(reply(base), "browser", nil)
	if c == nil {
		t.Fatal(why)
	}
	ctx := context.Background()
	v := Dynamic(ctx, c, Target{Driver: d, Start: base + "/mail"})
	if v.Accepted || len(v.Runs) != 0 || len(v.Why) != 1 || v.Why[0] != NotSafe {
		t.Fatalf("not safe: accepted %v, %d runs, why %q; want not run, %q", v.Accepted, len(v.Runs), v.Why, NotSafe)
	}
	if n := len(s.State().Replies); n != 0 {
		t.Fatalf("a mutating skill on a target not named safe sent %d replies", n)
	}
	v = Dynamic(ctx, c, Target{Driver: d, Start: base + "/mail", Mutate: true})
	if !v.Accepted || len(v.Runs) != 3 {
		t.Fatalf("safe: accepted %v, %d runs, why %q", v.Accepted, len(v.Runs), v.Why)
	}
	if st := s.State().Replies; len(st) != 3 || !st[2].PINGiven || st[2].Body != "Got it" {
		t.Errorf("replies stored: %+v", st)
	}
	dir := t.TempDir()
	paths, err := Write(dir, c, v, base+"/mail")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, pin := range []string{"4711", "9042", "1357"} {
			if strings.Contains(string(data), pin) {
				t.Errorf("%s holds the secret %s:\n%s", filepath.Base(p), pin, data)
			}
		}
	}
	src, _ := os.ReadFile(paths[0])
	if !strings.Contains(string(src), `# example: reply_with_pin("Thanks!", pin)`) {
		t.Errorf("the example line does not pass the secret by name:\n%s", src)
	}

	// Validating the stored skill again needs the PIN, which is not stored.
	st, err := Find(dir, "browser", "reply_with_pin")
	if err != nil {
		t.Fatal(err)
	}
	c2, why := st.Candidate(nil)
	if c2 == nil {
		t.Fatal(why)
	}
	v = Dynamic(ctx, c2, Target{Driver: d, Start: st.Sidecar.Start, Mutate: true})
	if v.Accepted || !strings.Contains(strings.Join(v.Why, ""), `no value for the secret parameter "pin"`) {
		t.Errorf("revalidation without the PIN: accepted %v, why %q", v.Accepted, v.Why)
	}
	v = Dynamic(ctx, c2, Target{Driver: d, Start: st.Sidecar.Start, Mutate: true, Secrets: map[string]string{"pin": "2468"}})
	if !v.Accepted || len(v.Runs) != 3 {
		t.Errorf("revalidation with the PIN: accepted %v, %d runs, why %q", v.Accepted, len(v.Runs), v.Why)
	}
}

// An API translation that passes the final-state check but ends elsewhere
// than the UI steps is not kept: the skill keeps its UI steps, and says
// why.
func TestDynamicAPIMismatch(t *testing.T) {
	_, base := demoSite(t)
	d := openBrowser(t)
	p := good()
	p.Steps = "skill wiki_search(query: text) {\n  s1 = open(\"" + base + "/wiki\")\n  s2 = type(textbox(name: \"Search\"), query)\n  s3 = click(button(name: \"Search\"))\n}"
	p.API = "skill wiki_search(query: text) {\n  s1 = open(\"" + base + "/wiki?q=\" + query + \"&from=api\")\n}"
	p.ParameterSets = []map[string]any{{"query": "Denali"}, {"query": "Serengeti"}, {"query": "Zanzibar"}}
	c, why := Static(p, "browser", nil)
	if c == nil {
		t.Fatal(why)
	}
	v := Dynamic(context.Background(), c, Target{Driver: d, Start: base + "/"})
	why2 := strings.Join(v.Why, "\n")
	if !v.Accepted || v.Body.Kind != BodySteps || len(v.Runs) != 4 ||
		!strings.Contains(why2, "api, parameter set 1: ends at "+base+"/wiki?q=Denali&from=api, the steps at "+base+"/wiki?q=Denali") ||
		!strings.Contains(why2, "the API translation failed, so the UI steps are kept") {
		t.Errorf("accepted %v, body %q, %d runs, why:\n%s", v.Accepted, v.Body.Kind, len(v.Runs), why2)
	}
}

// A mutating skill validated because its start is under a target named
// safe still acts only there: its own open of another page, or an action
// on a page a link led to, stops the run, and nothing is changed there.
func TestDynamicMutatingStaysOnTheSafeTarget(t *testing.T) {
	s, base := demoSite(t)
	d := openBrowser(t)
	safe := func(u string) bool { return strings.HasPrefix(u, base+"/wiki") }
	cases := []struct {
		name, steps, want string
	}{
		{"opens another page", "  s1 = open(\"" + base + "/mail/2\")\n  s2 = click(button(name: \"Reply\"))\n" +
			"  s3 = type(textbox(name: \"Reply\"), body)\n  s4 = type(textbox(name: \"PIN\"), pin)\n  s5 = click(button(name: \"Send\"))\n",
			"a mutating skill may not open " + base + "/mail/2"},
		{"a link leads off it", "  s1 = open(\"" + base + "/wiki\")\n  s2 = click(link(name: \"Mail\"))\n  s3 = click(link(name: \"Wiki\"))\n",
			"a mutating skill may not click on " + base + "/mail"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := reply(base)
			p.Steps = "skill reply_with_pin(body: text, pin: secret) {\n" + tc.steps + "}"
			p.FinalState = FinalState{URLContains: "/"}
			c, why := Static(p, "browser", nil)
			if c == nil {
				t.Fatal(why)
			}
			v := Dynamic(context.Background(), c, Target{Driver: d, Start: base + "/wiki", Mutate: true, Safe: safe})
			if got := strings.Join(v.Why, "\n"); v.Accepted || !strings.Contains(got, tc.want) {
				t.Errorf("accepted %v, why:\n%s\nwant a rejection with %q", v.Accepted, got, tc.want)
			}
			if n := len(s.State().Replies); n != 0 {
				t.Errorf("%d replies sent off the safe target", n)
			}
		})
	}
	// Under the safe target, the guard lets the skill do its work.
	v := Dynamic(context.Background(), mustStatic(t, reply(base)), Target{Driver: d, Start: base + "/mail", Mutate: true,
		Safe: func(u string) bool { return strings.HasPrefix(u, base+"/mail") }})
	if !v.Accepted || len(v.Runs) != 3 {
		t.Errorf("on the safe target: accepted %v, %d runs, why %q", v.Accepted, len(v.Runs), v.Why)
	}
}

func mustStatic(t *testing.T, p Proposal) *Candidate {
	t.Helper()
	c, why := Static(p, "browser", nil)
	if c == nil {
		t.Fatal(why)
	}
	return c
}

// A skill the model calls read_only runs on any target, so one that
// clicks Send is stopped before the click, and not accepted.
func TestDynamicReadOnlyThatMutates(t *testing.T) {
	s, base := demoSite(t)
	d := openBrowser(t)
	p := reply(base)
	p.Effect = ReadOnly
	v := Dynamic(context.Background(), mustStatic(t, p), Target{Driver: d, Start: base + "/mail"})
	if got := strings.Join(v.Why, "\n"); v.Accepted || !strings.Contains(got, `a skill said read_only may not click button(name: "Send")`) {
		t.Errorf("accepted %v, why:\n%s", v.Accepted, got)
	}
	if n := len(s.State().Replies); n != 0 {
		t.Errorf("a skill said read_only sent %d replies", n)
	}
}

// A text the final state must show is not shown by the field the skill
// typed it into: a search that only types its query, never searching,
// fails its check that the page shows the query.
func TestDynamicShowsIsNotAFieldValue(t *testing.T) {
	_, base := demoSite(t)
	d := openBrowser(t)
	p := good()
	p.Steps = "skill wiki_search(query: text) {\n  s1 = open(\"" + base + "/wiki\")\n  s2 = type(textbox(name: \"Search\"), query)\n}"
	p.ParameterSets = []map[string]any{{"query": "Qzxwv one"}, {"query": "Qzxwv two"}, {"query": "Qzxwv three"}}
	p.FinalState = FinalState{Shows: []string{"{query}"}}
	v := Dynamic(context.Background(), mustStatic(t, p), Target{Driver: d, Start: base + "/"})
	if got := strings.Join(v.Why, "\n"); v.Accepted || !strings.Contains(got, `"Qzxwv one" is not on the screen`) {
		t.Errorf("accepted %v, why:\n%s", v.Accepted, got)
	}
	// Searching shows it: the result count says what was searched for.
	p.Steps = strings.TrimSuffix(p.Steps, "}") + "  s3 = click(button(name: \"Search\"))\n}"
	p.ParameterSets = []map[string]any{{"query": "Denali"}, {"query": "Serengeti"}, {"query": "Zanzibar"}}
	v = Dynamic(context.Background(), mustStatic(t, p), Target{Driver: d, Start: base + "/"})
	if !v.Accepted {
		t.Errorf("searching: why %q", v.Why)
	}
}

// A stored skill whose file holds the API form is validated again against
// the UI steps it stands for: when the API no longer ends where the form
// does, the skill fails, though the API alone still passes its final
// state.
func TestRevalidateAPIAgainstItsSteps(t *testing.T) {
	_, base := demoSite(t)
	d := openBrowser(t)
	p := good()
	p.Steps = "skill wiki_search(query: text) {\n  s1 = open(\"" + base + "/wiki\")\n  s2 = type(textbox(name: \"Search\"), query)\n  s3 = click(button(name: \"Search\"))\n}"
	p.ParameterSets = []map[string]any{{"query": "Denali"}, {"query": "Serengeti"}, {"query": "Zanzibar"}}
	for _, tc := range []struct {
		api    string
		accept bool
	}{
		{"skill wiki_search(query: text) {\n  s1 = open(\"" + base + "/wiki?q=\" + query)\n}", true},
		// The site changed, say: the form now adds from=api; the
		// stored API form no longer gives what the form gives.
		{"skill wiki_search(query: text) {\n  s1 = open(\"" + base + "/wiki?q=\" + query + \"&from=api\")\n}", false},
	} {
		p.API = tc.api
		c := mustStatic(t, p)
		dir := t.TempDir()
		if _, err := Write(dir, c, Verdict{Name: c.Name, Accepted: true, Body: c.Bodies[1]}, base+"/"); err != nil {
			t.Fatal(err)
		}
		st, err := Find(dir, "browser", c.Name)
		if err != nil {
			t.Fatal(err)
		}
		c2, why := st.Candidate(nil)
		if c2 == nil {
			t.Fatal(why)
		}
		v := Dynamic(context.Background(), c2, Target{Driver: d, Start: base + "/"})
		got := strings.Join(v.Why, "\n")
		if v.Accepted != tc.accept || !tc.accept && !strings.Contains(got, "the file holds the api form, which no longer gives what the steps give") {
			t.Errorf("%s: accepted %v, %d runs, why:\n%s", tc.api, v.Accepted, len(v.Runs), got)
		}
	}
}
