package discover

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// good is a proposal that passes static validation; each case breaks one
// thing of it.
func good() Proposal {
	return Proposal{
		Name: "wiki_search", Description: "Search the wiki.",
		Params:        []Param{{"query", "text"}},
		ParameterSets: []map[string]any{{"query": "a"}, {"query": "b"}, {"query": "c"}},
		Steps:         "skill wiki_search(query: text) {\n  s1 = open(\"http://127.0.0.1:8088/wiki?q=\" + query)\n}\n",
		Effect:        ReadOnly,
		FinalState:    FinalState{URLContains: "q={query}", Elements: []string{`list(name: "Search results")`}},
	}
}

func TestStatic(t *testing.T) {
	cases := []struct {
		name string
		edit func(p *Proposal)
		want string // in the reasons; "" passes
	}{
		{"good", func(p *Proposal) {}, ""},
		{"good with an API translation", func(p *Proposal) {
			p.API = "skill wiki_search(query: text) {\n  s1 = open(\"http://127.0.0.1:8088/wiki?q=\" + query)\n}"
		}, ""},
		{"API through the browser library", func(p *Proposal) {
			p.API = "skill wiki_search(query: text) {\n  s1 = open_with_query(\"http://127.0.0.1:8088/wiki\", \"q\", query)\n}"
		}, ""},
		{"a library skill's name", func(p *Proposal) {
			p.Name = "open_with_query"
			p.Steps = strings.ReplaceAll(p.Steps, "wiki_search", "open_with_query")
		}, "is a skill the browser driver ships"},
		{"action's name", func(p *Proposal) { p.Name = "click" }, `name "click" is an action's name`},
		{"not a name", func(p *Proposal) { p.Name = "Wiki Search" }, "is not a name of the language"},
		{"two sentences on two lines", func(p *Proposal) { p.Description = "One.\nTwo." }, "one sentence on one line"},
		{"no effect", func(p *Proposal) { p.Effect = "" }, `effect must be "read_only" or "mutating"`},
		{"bad type", func(p *Proposal) { p.Params[0].Type = "element" }, `type "element" is not one of`},
		{"two sets", func(p *Proposal) { p.ParameterSets = p.ParameterSets[:2] }, "2 given, at least 3 needed"},
		{"too many sets", func(p *Proposal) {
			for i := range 8 {
				p.ParameterSets = append(p.ParameterSets, map[string]any{"query": fmt.Sprint("q", i)})
			}
		}, "parameter_sets: 11 given, at most 10 are run"},
		{"as many sets as are run", func(p *Proposal) {
			for i := range 7 {
				p.ParameterSets = append(p.ParameterSets, map[string]any{"query": fmt.Sprint("q", i)})
			}
		}, ""},
		{"same sets", func(p *Proposal) { p.ParameterSets[2]["query"] = "a" }, "only 2 distinct sets"},
		{"missing value", func(p *Proposal) { delete(p.ParameterSets[1], "query") }, `parameter_sets[1]: no value for "query"`},
		{"extra value", func(p *Proposal) { p.ParameterSets[1]["page"] = "2" }, `"page" is not a parameter`},
		{"number not a number", func(p *Proposal) {
			p.Params[0].Type = "number"
			p.Steps = strings.Replace(p.Steps, "query: text", "query: number", 1)
		}, `parameter_sets[0].query: "a" is not a number`},
		{"object value", func(p *Proposal) { p.ParameterSets[0]["query"] = map[string]any{} }, "must be a string, number or boolean"},
		{"unknown placeholder", func(p *Proposal) { p.FinalState.Shows = []string{"{title}"} }, "{title} is not a parameter"},
		{"empty final state", func(p *Proposal) { p.FinalState = FinalState{} }, "final_state: checks nothing"},
		{"secret in the final state", func(p *Proposal) {
			p.Params = append(p.Params, Param{"pin", "secret"})
			for i := range p.ParameterSets {
				p.ParameterSets[i]["pin"] = "1234"
			}
			p.FinalState.Shows = []string{"{pin}"}
		}, "{pin} is a secret parameter"},
		// A blank check holds on every page: the final state would
		// check nothing.
		{"blank shows", func(p *Proposal) { p.FinalState = FinalState{Shows: []string{""}} }, "final_state.shows[0]: is empty"},
		{"blank text among shows", func(p *Proposal) { p.FinalState.Shows = []string{"Results", "  "} }, "final_state.shows[1]: is empty"},
		{"blank element", func(p *Proposal) { p.FinalState.Elements = []string{" "} }, "final_state.elements[0]: is empty"},
		{"blank address part", func(p *Proposal) { p.FinalState = FinalState{URLContains: " "} }, "final_state.url_contains: is blank"},
		// A secret's value written into what is stored or shown.
		{"secret value in the steps", func(p *Proposal) {
			withPIN(p)
			p.Steps = strings.Replace(p.Steps, "+ query", "+ query + \"&pin=4711\"", 1)
		},
			"steps: holds the value of the secret parameter \"pin\""},
		{"secret value in the API", func(p *Proposal) {
			withPIN(p)
			p.API = "skill wiki_search(query: text, pin: secret) {\n  s1 = open(\"http://127.0.0.1:8088/wiki?pin=4713&q=\" + query)\n}"
		}, "api: holds the value of the secret parameter \"pin\""},
		{"secret value in the final state", func(p *Proposal) { withPIN(p); p.FinalState.Shows = []string{"PIN 4712 accepted"} },
			"final_state: holds the value of the secret parameter \"pin\""},
		{"secret value in the description", func(p *Proposal) { withPIN(p); p.Description = "Search with PIN 4711." },
			"description: holds the value of the secret parameter \"pin\""},
		{"secret value as another parameter's value", func(p *Proposal) { withPIN(p); p.ParameterSets[1]["query"] = "4711" },
			"parameter_sets[1].query: holds the value of the secret parameter \"pin\""},
		{"secret value too short to find", func(p *Proposal) { withPIN(p); p.ParameterSets[2]["pin"] = "12" },
			"parameter_sets[2].pin: a secret's value must have at least 3 characters"},
		{"secret parameter used right", func(p *Proposal) { withPIN(p) }, ""},
		{"syntax error", func(p *Proposal) { p.Steps = "skill wiki_search(query: text) {\n  s1 = open(\n}" },
			"wiki_search.steps.cog:2:"},
		{"checker error", func(p *Proposal) { p.Steps = "skill wiki_search(query: text) {\n  s1 = clikc(button(name: \"Go\"))\n}" },
			"wiki_search.steps.cog:2:8: error: "},
		{"signature differs", func(p *Proposal) { p.Steps = strings.ReplaceAll(p.Steps, "query", "q") },
			"the skill declares (q: text), the proposal's params are (query: text)"},
		{"API named differently", func(p *Proposal) {
			p.API = "skill search(query: text) {\n  s1 = open(\"http://127.0.0.1:8088/wiki?q=\" + query)\n}"
		}, `wiki_search.api.cog:1:1: the skill is named "search"`},
		{"a task, not a skill", func(p *Proposal) { p.Steps = "task wiki_search \"x\" {\n  driver browser\n}" }, "is not a skill declaration"},
		{"bad element in the final state", func(p *Proposal) { p.FinalState.Elements = []string{`list(name: "x"`} }, "final_state: wiki_search.validate.cog:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := good()
			c.edit(&p)
			cand, why := Static(p, "browser", nil)
			got := strings.Join(why, "\n")
			switch {
			case c.want == "" && (cand == nil || len(why) > 0):
				t.Fatalf("rejected:\n%s", got)
			case c.want != "" && (cand != nil || !strings.Contains(got, c.want)):
				t.Fatalf("reasons:\n%s\nwant a rejection with %q", got, c.want)
			}
		})
	}
}

// withPIN adds a secret parameter pin, with values 4711, 4712, 4713.
func withPIN(p *Proposal) {
	p.Params = append(p.Params, Param{"pin", "secret"})
	for i := range p.ParameterSets {
		p.ParameterSets[i]["pin"] = fmt.Sprint(4711 + i)
	}
	p.Steps = strings.Replace(p.Steps, "query: text", "query: text, pin: secret", 1)
}

func TestParseAnswer(t *testing.T) {
	cases := []struct {
		name, text string
		props, bad int
		err        string
	}{
		{"plain", `{"skills": [{"name": "a"}, {"name": "b"}]}`, 2, 0, ""},
		{"fenced", "```json\n{\"skills\": [{\"name\": \"a\"}]}\n```", 1, 0, ""},
		{"one malformed", `{"skills": [{"name": 3}, {"name": "b"}]}`, 1, 1, ""},
		{"not JSON", `Here are some skills: …`, 0, 0, "is not the JSON asked for"},
		{"no list", `{"skill": []}`, 0, 0, `has no "skills" list`},
	}
	for _, c := range cases {
		props, bad, err := parseAnswer(c.text)
		if len(props) != c.props || len(bad) != c.bad || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %d proposals, %d malformed, error %v; want %d, %d, %q", c.name, len(props), len(bad), err, c.props, c.bad, c.err)
		}
		if c.bad > 0 && !strings.Contains(bad[0].Error(), "$.skills[0]") {
			t.Errorf("%s: %v does not say where", c.name, bad[0])
		}
	}
}

// A validation task names every parameter as an input and writes the
// set's values into the final state's checks, escaped.
func TestValidationTask(t *testing.T) {
	p := good()
	p.FinalState.Elements = []string{`link(name: "{query}")`}
	c, why := Static(p, "browser", nil)
	if c == nil {
		t.Fatal(why)
	}
	src := validationTask(c, c.Bodies[0], map[string]string{"query": `say "hi"`})
	for _, want := range []string{"input query: text", "validate_call = wiki_search(query)", `assert(link(name: "say \"hi\""), message:`} {
		if !strings.Contains(src, want) {
			t.Errorf("validation task lacks %q:\n%s", want, src)
		}
	}
	data, _ := json.Marshal(c.FinalState)
	if !strings.Contains(string(data), "{query}") {
		t.Errorf("the candidate's final state lost its placeholder: %s", data)
	}
}

// A reply with more proposals than are validated says so for each one
// left out, and validates the first MaxProposals.
func TestLimitProposals(t *testing.T) {
	for _, n := range []int{0, 1, MaxProposals, MaxProposals + 3} {
		var props []Proposal
		for i := range n {
			props = append(props, Proposal{Name: fmt.Sprint("s", i)})
		}
		kept, over := limitProposals(props)
		if len(kept) != min(n, MaxProposals) || len(kept)+len(over) != n {
			t.Errorf("%d proposals: %d kept, %d over", n, len(kept), len(over))
		}
		for _, v := range over {
			if v.Accepted || len(v.Why) != 1 || !strings.Contains(v.Why[0], "only the first 20 are validated") {
				t.Errorf("%d proposals: verdict %+v", n, v)
			}
		}
	}
}
