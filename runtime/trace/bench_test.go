package trace

import (
	"fmt"
	"testing"
)

// bigTrace is a 2,000-event trace: typing, clicks in a 50-item list, each
// with a snapshot reference, as a long recording has.
func bigTrace() []byte {
	tr := New(DriverBrowser)
	var els []Element
	els = append(els, Element{Ref: "r0", Attributes: Attributes{Role: "list", Path: "main/ul"}, Parent: -1})
	for i := 1; i <= 50; i++ {
		els = append(els, Element{Ref: fmt.Sprintf("r%d", i), Attributes: Attributes{Role: "listitem",
			Text: fmt.Sprintf("Item %d", i), Path: fmt.Sprintf("main/ul/li[%d]", i), Visible: true},
			Parent: 0, List: &ListInfo{Container: "r0", Index: i - 1, Size: 50}})
	}
	tr.Snapshots = map[string]Snapshot{"s1": {URL: "http://x/", Title: "x", Elements: els}}
	for i := 0; i < 2000; i++ {
		e := Event{ID: fmt.Sprintf("e%d", i+1), Time: int64(i * 150)}
		switch i % 4 {
		case 0:
			e.Kind, e.Key, e.Text = KindKeyDown, &Key{Key: "a", Code: "KeyA"}, "a"
		case 1:
			e.Kind, e.Text, e.Value = KindInput, "a", "aaaa"
			e.Target = &Target{Attributes: Attributes{Role: "textbox", Name: "Search", ID: "q"}}
		default:
			n := i%50 + 1
			e.Kind, e.Button, e.Snapshot = KindClick, ButtonLeft, "s1"
			e.Target = &Target{Ref: fmt.Sprintf("r%d", n), Attributes: Attributes{Role: "listitem", Text: fmt.Sprintf("Item %d", n)},
				Context: &Context{List: &ListContext{Container: "main/ul", Index: n - 1, Size: 50}}}
		}
		tr.Events = append(tr.Events, e)
	}
	data, err := Marshal(tr)
	if err != nil {
		panic(err)
	}
	return data
}

func BenchmarkRead2000(b *testing.B) {
	data := bigTrace()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite2000(b *testing.B) {
	tr, err := Parse(bigTrace())
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Marshal(tr); err != nil {
			b.Fatal(err)
		}
	}
}
