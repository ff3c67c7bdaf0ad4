package adbtest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The contacts provider behind `content query`: its rows are the
// simulated app's contacts, so a contact added through the app's screens
// is in the next query. Tables (URI → columns):
//
//   - content://com.android.contacts/contacts: _id, display_name, has_phone_number
//   - content://com.android.contacts/data/phones: _id, contact_id, display_name, data1 (the number), mimetype
//   - content://com.android.contacts/data/emails: _id, contact_id, display_name, data1 (the address), mimetype
//   - content://com.android.contacts/data: the phone and e-mail rows together
//   - content://contacts/phones and content://contacts/people (the legacy API): _id, name, number
//
// --where takes a subset of SQL: COLUMN = | != | <> | LIKE 'text' or a
// number, joined by AND and OR; anything else fails as SQLite does. The
// sms provider refuses the shell (a SecurityException), and an unknown
// authority is "Could not find provider", as on a phone.

const (
	mimePhone = "vnd.android.cursor.item/phone_v2"
	mimeEmail = "vnd.android.cursor.item/email_v2"
)

// table is a provider's answer before projection and selection.
type table struct {
	columns []string
	rows    []map[string]string
}

// contactsTable returns the rows of a contacts URI, or ok false for a
// path the provider does not know.
func (a *App) contactsTable(uri string) (t table, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	data := []string{"_id", "contact_id", "display_name", "data1", "mimetype"}
	switch strings.TrimSuffix(uri, "/") {
	case "content://com.android.contacts/contacts":
		t.columns = []string{"_id", "display_name", "has_phone_number"}
		for _, c := range a.contacts {
			has := "0"
			if c.Phone != "" {
				has = "1"
			}
			t.rows = append(t.rows, map[string]string{"_id": strconv.Itoa(c.id), "display_name": c.Name, "has_phone_number": has})
		}
	case "content://com.android.contacts/data/phones":
		t.columns, t.rows = data, a.dataRows(true, false)
	case "content://com.android.contacts/data/emails":
		t.columns, t.rows = data, a.dataRows(false, true)
	case "content://com.android.contacts/data":
		t.columns, t.rows = data, a.dataRows(true, true)
	case "content://contacts/phones", "content://contacts/people":
		t.columns = []string{"_id", "name", "number"}
		for _, c := range a.contacts {
			t.rows = append(t.rows, map[string]string{"_id": strconv.Itoa(c.id), "name": c.Name, "number": c.Phone})
		}
	default:
		return t, false
	}
	return t, true
}

// dataRows are the contacts' phone and e-mail data rows, by contact; a
// phone row's _id is 1000 + the contact's, an e-mail row's 2000 + it.
func (a *App) dataRows(phones, emails bool) []map[string]string {
	var rows []map[string]string
	for _, c := range a.contacts {
		id := strconv.Itoa(c.id)
		if phones && c.Phone != "" {
			rows = append(rows, map[string]string{"_id": strconv.Itoa(1000 + c.id), "contact_id": id,
				"display_name": c.Name, "data1": c.Phone, "mimetype": mimePhone})
		}
		if emails && c.Email != "" {
			rows = append(rows, map[string]string{"_id": strconv.Itoa(2000 + c.id), "contact_id": id,
				"display_name": c.Name, "data1": c.Email, "mimetype": mimeEmail})
		}
	}
	return rows
}

// cmdContent supports `content query --uri URI [--projection A:B]
// [--where SQL] [--sort S] [--user N]`, printing rows as Android's
// content tool does; a provider's failure is printed as the tool prints
// it (status 0, as the tool exits).
func cmdContent(p *proc, args []string) int {
	if len(args) < 2 || args[1] != "query" {
		fmt.Fprintln(p.stderr, "usage: content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]  (simulated)")
		return 1
	}
	opts := map[string]string{}
	for i := 2; i < len(args); i++ {
		switch args[i] {
		case "--uri", "--projection", "--where", "--sort", "--user":
			if i+1 >= len(args) {
				fmt.Fprintf(p.stderr, "Error: No value for argument %s\n", args[i])
				return 1
			}
			opts[args[i]] = args[i+1]
			i++
		default:
			fmt.Fprintf(p.stderr, "Error: Unsupported argument: %s\n", args[i])
			return 1
		}
	}
	uri := opts["--uri"]
	if uri == "" {
		fmt.Fprintln(p.stderr, "Error: Content provider URI not specified. Did you specify --uri argument?")
		return 1
	}
	authority, _, _ := strings.Cut(strings.TrimPrefix(uri, "content://"), "/")
	out, err := p.dev.app.query(uri, authority, opts["--projection"], opts["--where"])
	if err != "" {
		fmt.Fprintf(p.stderr, "Error while accessing provider:%s\n%s\n", authority, err)
		fmt.Fprintf(p.stderr, "\tat com.android.commands.content.Content$QueryCommand.onExecute(Content.java:633)\n")
		return 0
	}
	fmt.Fprint(p.stdout, out)
	return 0
}

// query answers a content query: the printed rows, or the exception the
// tool would print.
func (a *App) query(uri, authority, projection, where string) (out, exception string) {
	switch authority {
	case "sms", "mms", "mms-sms":
		return "", "java.lang.SecurityException: Permission Denial: opening provider com.android.providers.telephony.SmsProvider " +
			"from ProcessRecord{9d1c2a4 4321:com.android.shell/2000} (pid=4321, uid=2000) requires android.permission.READ_SMS or android.permission.WRITE_SMS"
	case "com.android.contacts", "contacts":
	default:
		return "", "java.lang.IllegalStateException: Could not find provider: " + authority
	}
	t, ok := a.contactsTable(uri)
	if !ok {
		return "", "java.lang.IllegalArgumentException: Unknown URL " + uri
	}
	cols := t.columns
	if projection != "" {
		cols = strings.Split(projection, ":")
		for _, c := range cols {
			if !t.has(c) {
				return "", sqliteError("no such column: "+c, cols, where)
			}
		}
	}
	keep, msg := selection(where, t)
	if msg != "" {
		return "", sqliteError(msg, cols, where)
	}
	var b strings.Builder
	n := 0
	for _, r := range t.rows {
		if !keep(r) {
			continue
		}
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = c + "=" + r[c]
		}
		fmt.Fprintf(&b, "Row: %d %s\n", n, strings.Join(parts, ", "))
		n++
	}
	if n == 0 {
		return "No result found.\n", ""
	}
	return b.String(), ""
}

func (t table) has(c string) bool {
	for _, x := range t.columns {
		if x == c {
			return true
		}
	}
	return false
}

func sqliteError(msg string, cols []string, where string) string {
	q := "SELECT " + strings.Join(cols, ", ") + " FROM view_data"
	if where != "" {
		q += " WHERE (" + where + ")"
	}
	return "android.database.sqlite.SQLiteException: " + msg + " (code 1 SQLITE_ERROR): , while compiling: " + q
}

// whereToken splits a selection into quoted texts, numbers, words and
// operators.
var whereToken = regexp.MustCompile(`^\s*('(?:[^']|'')*'|[0-9]+(?:\.[0-9]+)?|[A-Za-z_][A-Za-z0-9_]*|<>|!=|=)`)

// selection compiles a --where subset into a row filter; msg is SQLite's
// complaint when it does not compile.
func selection(where string, t table) (keep func(map[string]string) bool, msg string) {
	if strings.TrimSpace(where) == "" {
		return func(map[string]string) bool { return true }, ""
	}
	var toks []string
	rest := where
	for strings.TrimSpace(rest) != "" {
		m := whereToken.FindStringSubmatch(rest)
		if m == nil {
			return nil, fmt.Sprintf("unrecognized token: %q", strings.TrimSpace(rest))
		}
		toks = append(toks, m[1])
		rest = rest[len(m[0]):]
	}
	// or := and (OR and)*; and := cmp (AND cmp)*; cmp := COLUMN op literal
	var terms [][]func(map[string]string) bool
	var cur []func(map[string]string) bool
	for i := 0; i < len(toks); {
		if i+2 >= len(toks) {
			return nil, fmt.Sprintf("incomplete input near %q", toks[i])
		}
		col, op, lit := toks[i], strings.ToUpper(toks[i+1]), toks[i+2]
		if !t.has(col) {
			return nil, "no such column: " + col
		}
		val, isText := strings.CutPrefix(lit, "'")
		if isText {
			val = strings.ReplaceAll(strings.TrimSuffix(val, "'"), "''", "'")
		} else if _, err := strconv.ParseFloat(lit, 64); err != nil {
			return nil, fmt.Sprintf("near %q: syntax error", lit)
		}
		f, ok := compare(col, op, val)
		if !ok {
			return nil, fmt.Sprintf("near %q: syntax error", toks[i+1])
		}
		cur = append(cur, f)
		i += 3
		if i < len(toks) {
			switch strings.ToUpper(toks[i]) {
			case "AND":
			case "OR":
				terms, cur = append(terms, cur), nil
			default:
				return nil, fmt.Sprintf("near %q: syntax error", toks[i])
			}
			i++
			if i == len(toks) {
				return nil, "incomplete input"
			}
		}
	}
	terms = append(terms, cur)
	return func(r map[string]string) bool {
		for _, and := range terms {
			all := true
			for _, f := range and {
				all = all && f(r)
			}
			if all {
				return true
			}
		}
		return false
	}, ""
}

// compare is one comparison of a selection: = and != compare exactly,
// LIKE ignores case with % and _ as wildcards, as SQLite's does.
func compare(col, op, val string) (func(map[string]string) bool, bool) {
	switch op {
	case "=":
		return func(r map[string]string) bool { return r[col] == val }, true
	case "!=", "<>":
		return func(r map[string]string) bool { return r[col] != val }, true
	case "LIKE":
		var re strings.Builder
		re.WriteString("(?is)^")
		for _, c := range val {
			switch c {
			case '%':
				re.WriteString(".*")
			case '_':
				re.WriteString(".")
			default:
				re.WriteString(regexp.QuoteMeta(string(c)))
			}
		}
		re.WriteString("$")
		m := regexp.MustCompile(re.String())
		return func(r map[string]string) bool { return m.MatchString(r[col]) }, true
	}
	return nil, false
}

// isContactsURI reports whether an INSERT intent's data names the
// contacts table (the contacts app's editor handles it).
func isContactsURI(data string) bool {
	switch strings.TrimSuffix(data, "/") {
	case "content://com.android.contacts/contacts", "content://com.android.contacts/raw_contacts", "content://contacts/people":
		return true
	}
	return false
}

// contactOf returns the contact id a VIEW intent's data names
// (content://com.android.contacts/contacts/N, content://contacts/people/N),
// 0 for none.
func contactOf(data string) int {
	for _, prefix := range []string{"content://com.android.contacts/contacts/", "content://contacts/people/"} {
		if rest, ok := strings.CutPrefix(data, prefix); ok {
			if n, err := strconv.Atoi(rest); err == nil && n > 0 {
				return n
			}
		}
	}
	return 0
}

// insertContact is the contacts app's editor opened by an INSERT intent:
// a new contact's form over the list, filled from the extras name, phone
// and email (ContactsContract.Intents.Insert); it is saved when the
// person taps Save, as on a phone.
func (a *App) insertContact(extras map[string]string) {
	f := a.editFrame(0)
	f.fields[idNameInput], f.fields[idPhoneInput], f.fields[idEmailInput] = extras["name"], extras["phone"], extras["email"]
	a.inApp, a.ext = true, nil
	a.stack = []*frame{{screen: ScreenList}, f}
}
