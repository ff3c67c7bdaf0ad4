package trace

import (
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

func TestFromDevToolsGolden(t *testing.T) {
	for _, name := range []string{"devtools_wiki", "devtools_form", "devtools_replay"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open("testdata/" + name + ".json")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			tr, warns, err := FromDevTools(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			var w strings.Builder
			for _, x := range warns {
				w.WriteString(x.String() + "\n")
			}
			golden, wgolden := "testdata/"+name+".trace.json", "testdata/"+name+".warnings"
			if *update {
				os.WriteFile(golden, got, 0o644)
				os.WriteFile(wgolden, []byte(w.String()), 0o644)
			}
			want, _ := os.ReadFile(golden)
			if string(got) != string(want) {
				t.Errorf("trace differs from %s (go test -update rewrites it):\n%s", golden, firstDiff(string(want), string(got)))
			}
			wwant, _ := os.ReadFile(wgolden)
			if w.String() != string(wwant) {
				t.Errorf("warnings differ from %s:\ngot\n%s\nwant\n%s", wgolden, w.String(), wwant)
			}
			for _, x := range warns {
				if len(x.Raw) == 0 || !strings.Contains(string(x.Raw), `"type"`) {
					t.Errorf("warning %s does not keep its step: %s", x, x.Raw)
				}
			}
		})
	}
}

func TestDevToolsSelectors(t *testing.T) {
	tests := []struct {
		sels string
		want Attributes
	}{
		{`[["aria/Search"]]`, Attributes{Name: "Search"}},
		{`[["aria/Search[role=\"searchbox\"]"]]`, Attributes{Name: "Search", Role: "searchbox"}},
		{`[["aria/[role=\"button\"]"]]`, Attributes{Role: "button"}},
		{`[["aria/Say \"hi\"[role=\"button\"][name=\"Say hi\"]"]]`, Attributes{Name: "Say hi", Role: "button"}},
		{`[["aria/Array[0]"]]`, Attributes{Name: "Array[0]"}},
		{`[["#q"]]`, Attributes{ID: "q"}},
		{`[["#a\\:b"]]`, Attributes{ID: "a:b"}},
		{`[["input#q.search.big"]]`, Attributes{ID: "q", Class: "search big"}},
		{`[[".results"]]`, Attributes{Class: "results"}},
		{`[["pierce/#notes"]]`, Attributes{ID: "notes"}},
		{`[["li:nth-of-type(2) > a"]]`, Attributes{}},
		{`[["text/Kilimanjaro"]]`, Attributes{}}, // a piece of text: the XPath says it, text: would ask for whole words
		{`[["xpath///*[@id=\"q\"]"]]`, Attributes{ID: "q"}},
		{`[["xpath//html/body/main/ul/li[2]/a"]]`, Attributes{Path: "main/ul/li[2]/a"}},
		{`[["xpath//html[1]/body[1]/main/form/input"]]`, Attributes{Path: "main/form/input"}},
		{`[["xpath//div[@class='x']"]]`, Attributes{}},
		// A chain through a shadow root: the last part is the element.
		{`[["my-app", "#inner"]]`, Attributes{ID: "inner"}},
		{`[["xpath//html/body/my-app", "xpath//div"]]`, Attributes{}},
		// The first selector that names an attribute wins.
		{`[["aria/First"], ["aria/Second"], ["#one"], ["#two"]]`, Attributes{Name: "First", ID: "one"}},
		// A plain string instead of a chain.
		{`["#plain"]`, Attributes{ID: "plain"}},
	}
	for _, tt := range tests {
		t.Run(tt.sels, func(t *testing.T) {
			in := `{"title": "t", "steps": [{"type": "click", "selectors": ` + tt.sels + `, "offsetX": 1, "offsetY": 2}]}`
			tr, warns, err := FromDevTools(strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			if len(warns) != 0 {
				t.Errorf("warnings: %v", warns)
			}
			tg := tr.Events[0].Target
			if !reflect.DeepEqual(tg.Attributes, tt.want) {
				t.Errorf("got  %+v\nwant %+v", tg.Attributes, tt.want)
			}
			if len(tg.Selectors) == 0 {
				t.Error("selectors not kept")
			}
		})
	}
}

func TestDevToolsSteps(t *testing.T) {
	in := `{"title": "popup", "steps": [
		{"type": "navigate", "url": "http://x/"},
		{"type": "keyDown", "key": "Shift"},
		{"type": "click", "selectors": [["#open"]], "offsetX": 1, "offsetY": 1, "button": "auxiliary"},
		{"type": "keyUp", "key": "Shift"},
		{"type": "click", "target": "http://x/popup", "selectors": [["aria/OK"]], "offsetX": 1, "offsetY": 1},
		{"type": "close", "target": "http://x/popup"},
		{"type": "doubleClick", "selectors": [["#w"]], "offsetX": 1, "offsetY": 1, "button": "secondary"},
		{"type": "scroll", "selectors": [["#list"]], "x": 0, "y": 300},
		{"type": "click", "selectors": [], "offsetX": 1, "offsetY": 1},
		{"type": "change", "value": "x"},
		{"type": "keyDown"},
		{"type": "navigate"},
		{"type": 7},
		{"url": "http://x/"},
		{"type": "setViewport", "width": 800, "height": 600},
		{"type": "click", "selectors": [["#a"]], "frame": [1], "assertedEvents": [{"type": "navigation"}, {"type": "download"}]},
		{"type": "teleport"}
	]}`
	tr, warns, err := FromDevTools(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Events {
		s := string(e.Kind)
		if e.Key != nil {
			s += " key=" + e.Key.Key
			if e.Key.Shift {
				s += "+shift"
			}
		}
		if e.Window != nil {
			s += " window=" + e.Window.ID
		}
		if e.Target != nil && e.Target.ID != "" {
			s += " #" + e.Target.ID
		}
		got = append(got, s)
	}
	want := []string{
		"navigate", "keydown key=Shift+shift", "middleclick key=+shift #open", "keyup key=Shift",
		"tab_switch window=http://x/popup", "click", "tab_close window=http://x/popup",
		"tab_switch window=main", "rightclick #w", "scroll #list", "viewport", "click #a",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var wgot []string
	for _, w := range warns {
		wgot = append(wgot, w.String())
	}
	wwant := []string{
		`steps[6] (doubleClick): a double click with the secondary button is recorded as a rightclick`,
		`steps[8] (click): step not converted: it has no selectors for its element`,
		`steps[9] (change): step not converted: it has no selectors for its element`,
		`steps[10] (keyDown): step not converted: keyDown without a key`,
		`steps[11] (navigate): step not converted: navigate without a url`,
		`steps[12] (): step not converted: $.steps[12].type: must be a string, not a number`,
		`steps[13] (): step not converted: it has no type`,
		`steps[15] (click): asserted navigation without a url not converted`,
		`steps[15] (click): asserted event "download" not converted`,
		`steps[16] (teleport): not converted: unknown step type "teleport"`,
	}
	if strings.Join(wgot, "\n") != strings.Join(wwant, "\n") {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(wgot, "\n"), strings.Join(wwant, "\n"))
	}
}

func TestFromDevToolsErrors(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`{"title": "x"}`, `not a DevTools Recorder recording: it has no "steps"`},
		{`[]`, "not a DevTools Recorder recording: $: must be an object, not an array"},
		{`{"steps": [`, "not a DevTools Recorder recording: $: invalid JSON at line 1, column 11: unexpected end of JSON input"},
		{`{"steps": 3}`, "not a DevTools Recorder recording: $.steps: must be an array, not a number"},
		{`{"title": ["x"], "steps": []}`, "not a DevTools Recorder recording: $.title: must be a string, not an array"},
		{`{"steps": [{"type": "navigate", "url": "::::"}]}`, `$.steps[0].url: "::::" is not an absolute URL: it does not begin with a scheme (like https:)`},
		{`{"steps": [{"type": "navigate", "url": "page.html"}]}`, `$.steps[0].url: "page.html" is not an absolute URL`},
		{`{"steps": [{"type": "navigate", "url": "http://a b/"}]}`, `$.steps[0].url: "http://a b/" is not a URL: it holds a space`},
		{`{"steps": [{"type": "navigate", "url": "https:///x"}]}`, `$.steps[0].url: "https:///x" has no host`},
		{`{"steps": [{"type": "navigate", "url": "http://a/"}, {"type": "click", "selectors": [["#b"]], "offsetX": 1, "offsetY": 1, "assertedEvents": [{"type": "navigation", "url": "::::"}]}]}`,
			`$.steps[1].assertedEvents[0].url: "::::" is not an absolute URL`},
		{`{"format": "cogflow-trace", "version": 1, "steps": []}`, "not a DevTools Recorder recording: this is already a cogflow trace"},
	}
	for _, tt := range tests {
		_, _, err := FromDevTools(strings.NewReader(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.msg) {
			t.Errorf("FromDevTools(%s) = %v, want %s…", tt.in, err, tt.msg)
		}
	}
}

// TestDevToolsHardSelectors: the selector a target keeps as its exact css
// or xpath, from every kind of Recorder selector.
func TestDevToolsHardSelectors(t *testing.T) {
	tests := []struct {
		sels, css, xpath string
	}{
		{`[["aria/Search"], ["#q"], ["xpath///*[@id=\"q\"]"]]`, "#q", ""},
		{`[["svg > path"]]`, "svg > path", ""},
		{`[["pierce/#notes"]]`, "#notes", ""},
		{`[["custom-element", "button"]]`, "custom-element >>> button", ""},
		{`[["pierce/my-app", "pierce/#inner"]]`, "my-app >>> #inner", ""},
		{`[["aria/Open"], ["xpath//html/body/my-widget/button"]]`, "", "/html/body/my-widget/button"},
		{`[["text/Inp"]]`, "", `//*[not(self::script or self::style) and contains(normalize-space(.), "Inp") and not(.//*[not(self::script or self::style) and contains(normalize-space(.), "Inp")])]`},
		{`[["aria/Name:"]]`, "", ""},
		{`[["aria/Host", "aria/Inner"]]`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.sels, func(t *testing.T) {
			in := `{"title": "t", "steps": [{"type": "click", "selectors": ` + tt.sels + `, "offsetX": 1, "offsetY": 2, "frame": [0, 2], "timeout": 300}]}`
			tr, _, err := FromDevTools(strings.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			e := tr.Events[0]
			if e.Target.CSS != tt.css || e.Target.XPath != tt.xpath {
				t.Errorf("css %q xpath %q, want css %q xpath %q", e.Target.CSS, e.Target.XPath, tt.css, tt.xpath)
			}
			if !reflect.DeepEqual(e.Target.Frame, []int{0, 2}) || e.Timeout != 300 {
				t.Errorf("frame %v timeout %d, want [0 2] and 300", e.Target.Frame, e.Timeout)
			}
		})
	}
}

// TestDevToolsFrameTargets: a step whose target is on another site than
// the page is in an out-of-process frame (no tab switch); one on the same
// site is a popup tab.
func TestDevToolsFrameTargets(t *testing.T) {
	tests := []struct {
		target  string
		switch_ bool
	}{
		{"http://oopifdomain:8000/iframe1.html", false},
		{"http://127.0.0.1:8000/popup.html", true},
		{"https://docs.example.com/x", true},
		{"https://other.org/x", false},
	}
	for _, tt := range tests {
		in := `{"title": "t", "steps": [{"type": "navigate", "url": "http://127.0.0.1:8000/main.html"},
			{"type": "click", "target": "` + tt.target + `", "selectors": [["body > a"]], "offsetX": 1, "offsetY": 1}]}`
		if strings.Contains(tt.target, "example.com") {
			in = strings.Replace(in, "http://127.0.0.1:8000/main.html", "https://www.example.com/", 1)
		}
		tr, _, err := FromDevTools(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, e := range tr.Events {
			got = got || e.Kind == KindTabSwitch
		}
		if got != tt.switch_ {
			t.Errorf("%s: tab switch %v, want %v", tt.target, got, tt.switch_)
		}
	}
}

// TestFromDevToolsStepTypes: a step field of the wrong JSON type is
// reported with its JSON path and JSON kinds, never Go's type names.
func TestFromDevToolsStepTypes(t *testing.T) {
	tests := []struct{ step, want string }{
		{`{"type": "click", "selectors": [["#b"]], "offsetX": "a"}`, "$.steps[1].offsetX: must be a number, not a string"},
		{`{"type": "click", "selectors": [["#b"]], "frame": [0, "x"]}`, "$.steps[1].frame[1]: must be a whole number, not a string"},
		{`{"type": "click", "selectors": [["#b"]], "frame": [0, 1.5]}`, "$.steps[1].frame[1]: must be a whole number, not the number 1.5"},
		{`{"type": "click", "selectors": [["#b"]], "assertedEvents": [{"type": "navigation"}, {"url": 3}]}`, "$.steps[1].assertedEvents[1].url: must be a string, not a number"},
		{`{"type": "setViewport", "width": 1e999, "height": 3}`, "$.steps[1].width: must be a whole number, not the number 1e999, which is out of range"},
		{`{"type": "change", "selectors": {"a": 1}}`, "$.steps[1].selectors: must be an array, not an object"},
		{`{"type": "keyDown", "key": {"a": [1, {"b": 2}]}}`, "$.steps[1].key: must be a string, not an object"},
	}
	for _, tt := range tests {
		rec := `{"title": "x", "steps": [{"type": "navigate", "url": "http://a/"}, ` + tt.step + `]}`
		_, warns, err := FromDevTools(strings.NewReader(rec))
		if err != nil {
			t.Fatalf("%s: %v", tt.step, err)
		}
		var got []string
		for _, w := range warns {
			got = append(got, w.String())
		}
		all := strings.Join(got, "\n")
		if !strings.Contains(all, "step not converted: "+tt.want) || strings.Contains(all, "Go ") || strings.Contains(all, "json:") {
			t.Errorf("%s: warnings\n%s\nwant …%s", tt.step, all, tt.want)
		}
	}
}
