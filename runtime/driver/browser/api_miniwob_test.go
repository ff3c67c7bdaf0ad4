package browser

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// miniwobServer serves the MiniWoB++ pages (../shared/fixtures, or
// $COGFLOW_FIXTURES), read in place, never copied into the repository; it
// skips unless COGFLOW_EVAL_FIXTURES is set (make eval-browser-actions) and
// when they are not on this machine.
func miniwobServer(t *testing.T) string {
	t.Helper()
	if os.Getenv("COGFLOW_EVAL_FIXTURES") == "" {
		// make test keeps to the project's own pages.
		t.Skip("reads the third-party MiniWoB++ fixtures: run by make eval-browser-actions (COGFLOW_EVAL_FIXTURES=1)")
	}
	dir := filepath.Join("..", "..", "..", "..", "shared", "fixtures", "miniwob", "html")
	if f := os.Getenv("COGFLOW_FIXTURES"); f != "" {
		dir = filepath.Join(f, "miniwob", "html")
	}
	if _, err := os.Stat(filepath.Join(dir, "miniwob", "read-table.html")); err != nil {
		t.Skipf("no MiniWoB++ fixtures: %v", err)
	}
	srv := httptest.NewUnstartedServer(http.FileServer(http.Dir(dir)))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/miniwob/"
}

// TestAPIActionsOnMiniWoB runs the API-first actions on MiniWoB++ tasks
// nobody here wrote, several episodes each, and takes the task's own
// reward as the verdict: read-table (read_table, then set_value of the
// value the instruction asks for), choose-list (set_value on a <select>
// by the option's text) and enter-time (set_value on a time input).
func TestAPIActionsOnMiniWoB(t *testing.T) {
	base := miniwobServer(t)
	d := sharedDriver(t)
	ctx := context.Background()
	bold := regexp.MustCompile(`Enter the value of (.+) into the text field`)
	tests := []struct {
		task  string
		solve func(t *testing.T, query string) (field, value string)
	}{
		{"read-table", func(t *testing.T, query string) (string, string) {
			m := bold.FindStringSubmatch(query)
			if m == nil {
				t.Fatalf("instruction %q", query)
			}
			tbl := find(t, d, driver.Query{CSS: "#tab table"}, func(e *driver.Element) bool { return true })
			res := do(t, d, driver.Action{Op: action.ReadTable, Target: tbl})
			if len(res.Table) != 5 {
				t.Fatalf("read_table: %q, want 5 rows", res.Table)
			}
			for _, row := range res.Table {
				if len(row) == 2 && row[0] == m[1] {
					return "tt", row[1]
				}
			}
			t.Fatalf("no row %q in %q", m[1], res.Table)
			return "", ""
		}},
		{"choose-list", func(t *testing.T, query string) (string, string) {
			v, ok := strings.CutPrefix(query, "Select ")
			if !ok {
				t.Fatalf("instruction %q", query)
			}
			return "options", strings.TrimSuffix(v, " from the list and click Submit.")
		}},
		{"enter-time", func(t *testing.T, query string) (string, string) {
			v := strings.TrimSuffix(strings.TrimPrefix(query, "Enter "), " as the time and press submit.")
			tm, err := time.Parse("3:04 PM", v)
			if err != nil {
				t.Fatalf("instruction %q: %v", query, err)
			}
			return "tt", tm.Format("15:04")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.task, func(t *testing.T) {
			open(t, d, base+tc.task+".html")
			for ep := 0; ep < 4; ep++ {
				do(t, d, driver.Action{Op: action.Click, Target: target(t, d, "sync-task-cover")})
				query := eval(t, d, "document.getElementById('query').textContent")
				field, value := tc.solve(t, query)
				do(t, d, driver.Action{Op: action.SetValue, Target: target(t, d, field), Text: value})
				submit := find(t, d, driver.Query{Role: "button", Name: "Submit"}, func(e *driver.Element) bool { return e.Role == "button" })
				if _, err := d.Do(ctx, driver.Action{Op: action.Click, Target: submit}); err != nil {
					t.Fatal(err)
				}
				if r := eval(t, d, "WOB_RAW_REWARD_GLOBAL"); r != "1" {
					t.Errorf("episode %d (%q, set %q): raw reward %s", ep, query, value, r)
				}
			}
		})
	}
}
