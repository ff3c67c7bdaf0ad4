package browser

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// recordForms has one form per case of the form facts; a field's id names
// its case. The listener on #doc-form's document is why that page is
// separate.
const recordForms = `<!doctype html><html><head><title>Forms</title></head><body>
<form action="/wiki?old=1" method="get"><input id=plain name=q aria-label=plain><button>Go</button></form>
<form action="/wiki" method="GET"><input type=hidden name=token value=t1><input id=hidden name=q aria-label=hidden><button>Go</button></form>
<form action="/wiki" method="post"><input id=post name=q aria-label=post><button>Go</button></form>
<form action="/wiki" onsubmit="return true"><input id=onsubmit name=q aria-label=onsubmit><button>Go</button></form>
<form action="/wiki" id=lf><input id=listener name=q aria-label=listener><button>Go</button></form>
<div id=wrap><form action="/wiki"><input id=ancestor name=q aria-label=ancestor><button>Go</button></form></div>
<form action="/wiki"><input id=filled name=q aria-label=filled><input name=lang value=en aria-label=lang>
  <input type=checkbox name=all aria-label=all><select name=sort aria-label=sort><option value="">any</option></select><button name=go value=1>Go</button></form>
<form action="/wiki"><input id=shadowed name=q aria-label=shadowed><input name=action aria-label=action><input name=method aria-label=method></form>
<form action="/wiki" accept-charset="ISO-8859-1 utf-8"><input id=latin name=q aria-label=latin></form>
<input id=loose name=q aria-label=loose>
<script>
document.getElementById('lf').addEventListener('submit', () => {});
document.getElementById('wrap').addEventListener('submit', () => {});
</script>
</body></html>`

func TestRecordFormFacts(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := Start(ctx, driver.Options{ActionTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer d.Close()
	s := newSite(t)
	s.page("/", recordForms)
	s.page("/doc", `<!doctype html><title>Doc</title><form action="/wiki"><input id=doc name=q aria-label=doc></form>
<script>document.addEventListener('submit', () => {});</script>`)

	type result struct {
		tr  *trace.Trace
		err error
	}
	done := make(chan result, 1)
	go func() {
		tr, err := d.Record(ctx, s.URL+"/", RecordOptions{})
		done <- result{tr, err}
	}()
	d.life.Lock()
	h := person{t: t, p: d.cur.p}
	d.life.Unlock()
	h.waitFor("#loose")
	time.Sleep(300 * time.Millisecond)
	ids := []string{"plain", "hidden", "post", "onsubmit", "listener", "ancestor", "filled", "shadowed", "latin", "loose"}
	for _, id := range ids {
		h.click("#" + id)
		h.typeText("x")
	}
	if err := h.p.Navigate(s.URL + "/doc"); err != nil {
		t.Fatal(err)
	}
	h.waitFor("#doc")
	time.Sleep(300 * time.Millisecond)
	h.click("#doc")
	h.typeText("x")
	h.stopChord()
	var res result
	select {
	case res = <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("the stop chord did not end the recording")
	}
	if res.err != nil {
		t.Fatalf("record: %v", res.err)
	}
	tr := res.tr
	// formOf is the form facts of the last input event into the field.
	formOf := func(id string) *trace.FormInfo {
		t.Helper()
		for i := len(tr.Events) - 1; i >= 0; i-- {
			e := tr.Events[i]
			if e.Kind != trace.KindInput || e.Target == nil || e.Target.ID != id {
				continue
			}
			el := tr.Snapshots[e.Snapshot].ByRef(e.Target.Ref)
			if el == nil {
				t.Fatalf("%s: the target is not in its snapshot", id)
			}
			return el.Form
		}
		t.Fatalf("no input event into #%s", id)
		return nil
	}
	wiki := s.URL + "/wiki"
	for _, tc := range []struct {
		id     string
		want   *trace.FormInfo
		filled string
	}{
		{"plain", &trace.FormInfo{Action: wiki + "?old=1", Method: "get", Field: "q", Script: trace.FormScriptNone, Charset: "UTF-8"}, ""},
		{"hidden", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Hidden: 1, Script: trace.FormScriptNone, Charset: "UTF-8"}, ""},
		{"post", &trace.FormInfo{Action: wiki, Method: "post", Field: "q", Script: trace.FormScriptNone, Charset: "UTF-8"}, ""},
		{"onsubmit", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptOnsubmit, Charset: "UTF-8"}, ""},
		{"listener", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptListener, Charset: "UTF-8"}, ""},
		{"ancestor", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptListener, Charset: "UTF-8"}, ""},
		// The select's empty option is still sent, but as sort= it is no
		// value: the compiler's proof is the navigation, which has it.
		{"filled", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptNone, Charset: "UTF-8"}, "lang"},
		{"shadowed", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptNone, Charset: "UTF-8"}, ""},
		{"latin", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptNone, Charset: "ISO-8859-1"}, ""},
		{"loose", nil, ""},
		{"doc", &trace.FormInfo{Action: wiki, Method: "get", Field: "q", Script: trace.FormScriptListener, Charset: "UTF-8"}, ""},
	} {
		t.Run(tc.id, func(t *testing.T) {
			got := formOf(tc.id)
			if tc.want == nil {
				if got != nil {
					t.Errorf("a field of no form has form facts %+v", got)
				}
				return
			}
			if got == nil {
				t.Fatal("no form facts")
			}
			if strings.Join(got.Filled, ",") != tc.filled {
				t.Errorf("filled = %q, want %q", got.Filled, tc.filled)
			}
			got.Filled = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("form = %+v, want %+v", *got, *tc.want)
			}
		})
	}
}
