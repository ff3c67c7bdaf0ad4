package android

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// The API-first actions of the Android driver (AXIS): an intent started
// with `am start` in place of taps through the launcher and an app's
// screens, and a content provider read with `content query` in place of
// scrolling a list and reading its rows off the screen.

var (
	// intentName is an intent action such as android.intent.action.VIEW:
	// a Java identifier path, never something am could take for an
	// option or the shell for syntax.
	intentName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$`)
	// componentName is a package, or package/activity as `am start -n`
	// takes it (the activity may start with "." and name an inner class).
	componentName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*(/\.?[A-Za-z0-9_$]+(\.[A-Za-z0-9_$]+)*)?$`)
	// extraKey is the key of a string extra (sms_body, android.intent.extra.TEXT).
	extraKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
	// columnName is a provider column for --projection, which joins them
	// with ":".
	columnName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// intentCommand builds `am start -W` for the intent: every value the
// workflow gives is one shell word (shellQuote), and the parts am reads as
// names are checked first, so nothing can add an option or shell syntax.
func intentCommand(a driver.Action) (string, error) {
	act := strings.TrimSpace(a.Text)
	if !intentName.MatchString(act) {
		return "", fmt.Errorf("intent: %q is not an intent action (such as \"android.intent.action.VIEW\")", clip(act, 80))
	}
	cmd := []string{"am", "start", "-W", "-a", act}
	if a.Data != "" {
		if strings.ContainsRune(a.Data, 0) {
			return "", errors.New("intent: the data holds a NUL character")
		}
		cmd = append(cmd, "-d", shellQuote(a.Data))
	}
	if p := strings.TrimSpace(a.Package); p != "" {
		if !componentName.MatchString(p) {
			return "", fmt.Errorf("intent: package %q is not a package name or package/activity", clip(p, 80))
		}
		if strings.Contains(p, "/") {
			cmd = append(cmd, "-n", p)
		} else {
			cmd = append(cmd, "-p", p)
		}
	}
	for i, kv := range a.Extras {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !extraKey.MatchString(k) {
			return "", fmt.Errorf(`intent: extras[%d] must be "key=value" with a key such as sms_body or android.intent.extra.TEXT`, i)
		}
		if strings.ContainsRune(v, 0) {
			return "", fmt.Errorf("intent: extras[%d] holds a NUL character", i)
		}
		cmd = append(cmd, "--es", k, shellQuote(v))
	}
	return strings.Join(cmd, " "), nil
}

// intent starts an activity by intent and confirms that one came to the
// front: `am start -W` waits for the launch and names the activity it
// displayed; the activity manager must then report that same activity
// resumed. Android's app chooser in front means no app was picked, which
// fails too.
func (d *Driver) intent(ctx context.Context, a driver.Action) (*driver.Window, error) {
	cmd, err := intentCommand(a)
	if err != nil {
		return nil, err
	}
	out, err := d.dev.Shell(ctx, cmd)
	if err != nil {
		return nil, deviceError(ctx, err)
	}
	what := "intent " + a.Text
	if msg := failure(out); msg != "" {
		return nil, fmt.Errorf("%s: am start: %s", what, scrub(msg, a))
	}
	status, shown := amWaitResult(string(out))
	if status != "" && status != "ok" {
		return nil, fmt.Errorf("%s: am start reports status %q: no activity was confirmed to start", what, status)
	}
	if strings.Contains(string(out), broughtToFront) && (a.Data != "" || len(a.Extras) > 0) {
		// The task an equal intent (extras aside) started is shown as
		// it is now, and this intent reached no activity.
		return nil, fmt.Errorf("%s: am start brought the task of an earlier equal intent to the front instead of starting an activity, so its data and extras were not delivered", what)
	}
	front, err := d.resumedActivity(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case shown == "":
		// Without it the activity in front may be the one that was there
		// before: nothing confirms the intent started it.
		return nil, fmt.Errorf("%s: am start -W did not name the activity it displayed, so its start cannot be confirmed (%s is in front)", what, front)
	case front == "":
		return nil, fmt.Errorf("%s: the activity manager reports no resumed activity after am start", what)
	case fullComponent(shown) != fullComponent(front):
		return nil, fmt.Errorf("%s: am start displayed %s, but %s is in front", what, shown, front)
	case isChooser(front):
		return nil, fmt.Errorf("%s: several apps handle it and Android asks which (%s is in front); name one with package:", what, front)
	}
	pkg, _, _ := strings.Cut(front, "/")
	if want := strings.TrimSpace(a.Package); want != "" {
		wantPkg, _, comp := strings.Cut(want, "/")
		if pkg != wantPkg || comp && fullComponent(want) != fullComponent(front) {
			return nil, fmt.Errorf("%s: asked for %s, but %s is in front", what, want, front)
		}
	}
	w := &driver.Window{ID: pkg, Title: front, URL: "android-app://" + pkg}
	if a.Data != "" && !a.Secret {
		w.URL = a.Data
	}
	return w, nil
}

// broughtToFront is am's warning that it started nothing: the activity
// an equal intent started before is in a task that came to the front.
const broughtToFront = "Activity not started, its current task has been brought to the front"

// amWaitResult reads `am start -W`'s report: its Status line and the
// Activity it displayed ("" when the device's am prints none).
func amWaitResult(out string) (status, activity string) {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "Status: "); ok {
			status = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "Activity: "); ok {
			activity = strings.TrimSpace(v)
		}
	}
	return status, activity
}

// resumedCmd asks the activity manager for the resumed activity's lines.
const resumedCmd = "dumpsys activity activities | grep -E 'mResumedActivity|topResumedActivity'"

// resumedActivity asks the activity manager which activity is resumed, as
// "package/class".
func (d *Driver) resumedActivity(ctx context.Context) (string, error) {
	out, err := d.dev.Shell(ctx, resumedCmd)
	if err != nil {
		return "", deviceError(ctx, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		// "mResumedActivity: ActivityRecord{c1d5e8a u0 pkg/.Act t42}"
		_, rec, ok := strings.Cut(line, "ActivityRecord{")
		if !ok {
			continue
		}
		f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(rec), "}"))
		if len(f) >= 3 && strings.Contains(f[2], "/") {
			return f[2], nil
		}
	}
	return "", nil
}

// fullComponent spells "pkg/.Cls" as "pkg/pkg.Cls", so the two forms
// Android prints compare equal.
func fullComponent(c string) string {
	pkg, cls, ok := strings.Cut(c, "/")
	if ok && strings.HasPrefix(cls, ".") {
		return pkg + "/" + pkg + cls
	}
	return c
}

// isChooser reports whether the activity is Android's "open with" dialog:
// the framework's, or since Android 14 the IntentResolver module's.
func isChooser(c string) bool {
	pkg, cls, _ := strings.Cut(c, "/")
	return (pkg == "android" || pkg == "com.android.intentresolver") &&
		(strings.Contains(cls, "ResolverActivity") || strings.Contains(cls, "ChooserActivity"))
}

// scrub takes the intent's or query's values out of a message when one of
// them holds a secret: am's errors quote the intent back, and a
// provider's the URI. (An intent's action is a name, never a secret.)
func scrub(msg string, a driver.Action) string {
	if !a.Secret {
		return msg
	}
	values := []string{a.Data, a.Where}
	if a.Op == action.ContentQuery {
		values = append(values, a.Text)
	}
	for _, kv := range a.Extras {
		_, v, _ := strings.Cut(kv, "=")
		values = append(values, v)
	}
	for _, v := range values {
		if v != "" {
			msg = strings.ReplaceAll(msg, v, "***")
		}
	}
	return msg
}

// queryCommand builds `content query` for content_query, checking the
// URI and the column names and quoting the URI and the selection.
func queryCommand(a driver.Action) (string, error) {
	uri := strings.TrimSpace(a.Text)
	if !strings.HasPrefix(uri, "content://") || len(uri) == len("content://") ||
		strings.ContainsAny(uri, " \t\r\n\x00") {
		return "", fmt.Errorf("content_query: %q is not a content URI (such as \"content://com.android.contacts/data/phones\")", clip(uri, 80))
	}
	cmd := "content query --uri " + shellQuote(uri)
	for i, c := range a.Columns {
		if !columnName.MatchString(c) {
			return "", fmt.Errorf("content_query: columns[%d] %q is not a column name", i, clip(c, 40))
		}
	}
	if len(a.Columns) > 0 {
		cmd += " --projection " + strings.Join(a.Columns, ":")
	}
	if a.Where != "" {
		if strings.ContainsRune(a.Where, 0) {
			return "", errors.New("content_query: where holds a NUL character")
		}
		cmd += " --where " + shellQuote(a.Where)
	}
	return cmd, nil
}

// contentQuery reads a content provider's rows.
func (d *Driver) contentQuery(ctx context.Context, a driver.Action) ([]string, error) {
	cmd, err := queryCommand(a)
	if err != nil {
		return nil, errors.New(scrub(err.Error(), a))
	}
	out, err := d.dev.Shell(ctx, cmd)
	if err != nil {
		return nil, deviceError(ctx, err)
	}
	rows, err := parseRows(string(out), a.Columns)
	if err != nil {
		return nil, errors.New(scrub(fmt.Sprintf("content_query %s: %s", a.Text, err), a))
	}
	return rows, nil
}

// parseRows reads `content query`'s output: "Row: N col=value, col=value"
// lines, a value's own line breaks continuing the row; "No result found."
// for none. A provider's refusal ("Error while accessing provider:…" and
// the exception that says why), or anything else, is an error. With
// columns, every row must hold them in order, as --projection asked.
func parseRows(out string, columns []string) ([]string, error) {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	if i := strings.Index(out, "Error while accessing provider:"); i >= 0 {
		return nil, providerError(out[i:])
	}
	if strings.TrimSpace(out) == "" {
		return nil, errors.New("content query printed nothing")
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, "Row: ")
		if ok {
			num, text, _ := strings.Cut(rest, " ")
			if n, err := strconv.Atoi(num); err == nil && n == len(rows) {
				rows = append(rows, text)
				continue
			}
		}
		switch {
		case len(rows) > 0:
			rows[len(rows)-1] += "\n" + line // a value with a line break
		case strings.TrimSpace(line) == "No result found.":
			return []string{}, nil
		default:
			if msg := failure([]byte(line)); msg != "" {
				return nil, errors.New(msg)
			}
			return nil, fmt.Errorf("unexpected output %q", clip(strings.TrimSpace(line), 120))
		}
	}
	for i, r := range rows {
		if err := hasColumns(r, columns); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
	}
	return rows, nil
}

// hasColumns checks that a row holds the columns in order.
func hasColumns(row string, columns []string) error {
	at := 0
	for i, c := range columns {
		sep := ", " + c + "="
		if i == 0 {
			if !strings.HasPrefix(row, c+"=") {
				return fmt.Errorf("it does not start with column %s: %q", c, clip(row, 120))
			}
			at = len(c) + 1
			continue
		}
		j := strings.Index(row[at:], sep)
		if j < 0 {
			return fmt.Errorf("it lacks column %s: %q", c, clip(row, 120))
		}
		at += j + len(sep)
	}
	return nil
}

// providerError explains "Error while accessing provider:NAME" with the
// exception printed after it.
func providerError(out string) error {
	lines := strings.Split(out, "\n")
	name := strings.TrimSpace(strings.TrimPrefix(lines[0], "Error while accessing provider:"))
	why := ""
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "at ") {
			why = clip(l, 300)
			break
		}
	}
	if strings.Contains(why, "SecurityException") {
		return fmt.Errorf("the provider %s refused the shell (it lacks the permission): %s", name, why)
	}
	if why == "" {
		why = "no reason given"
	}
	return fmt.Errorf("error while accessing provider %s: %s", name, why)
}
