package android

import (
	"context"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// BenchmarkFindNumber reads Bob Smith's number from the simulated phone
// over the ADB protocol both ways, in one run so the two are compared on
// the same machine load: through the contacts app's screens (launch,
// type into the search field, read the list) and with one content query.
// requests/op counts the adb services each way asks for (shell commands
// and their transport switches).
func BenchmarkFindNumber(b *testing.B) {
	srv, err := adbtest.NewServer(b, nil)
	if err != nil {
		b.Fatal(err)
	}
	d, err := Open(context.Background(), driver.Options{RemoteURL: srv.Addr()})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	const want = "+1 555-0123"
	b.Run("ui", func(b *testing.B) {
		n0 := len(srv.Requests())
		defer func() { b.ReportMetric(float64(len(srv.Requests())-n0)/float64(b.N), "requests/op") }()
		for b.Loop() {
			if _, err := d.Do(ctx, driver.Action{Op: action.Launch, Text: adbtest.ContactsPackage}); err != nil {
				b.Fatal(err)
			}
			tr, err := d.Observe(ctx)
			if err != nil {
				b.Fatal(err)
			}
			var search *driver.Element
			for _, e := range tr.Elements {
				if e.Editable {
					search = e
				}
			}
			if _, err := d.Do(ctx, driver.Action{Op: action.Type, Target: search, Text: "Bob"}); err != nil {
				b.Fatal(err)
			}
			tr, err = d.Observe(ctx)
			if err != nil {
				b.Fatal(err)
			}
			found := false
			for _, e := range tr.Elements {
				found = found || e.Text == want
			}
			if !found {
				b.Fatal("the list does not show the number")
			}
		}
	})
	b.Run("api", func(b *testing.B) {
		n0 := len(srv.Requests())
		defer func() { b.ReportMetric(float64(len(srv.Requests())-n0)/float64(b.N), "requests/op") }()
		for b.Loop() {
			res, err := d.Do(ctx, driver.Action{Op: action.ContentQuery, Text: "content://com.android.contacts/data/phones",
				Columns: []string{"data1"}, Where: "display_name LIKE '%Bob%'"})
			if err != nil || len(res.Rows) != 1 || res.Rows[0] != "data1="+want {
				b.Fatalf("rows %q, %v", res.Rows, err)
			}
		}
	})
}
