package site

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// newServer starts the site on a test server.
func newServer(t *testing.T) (*Site, *httptest.Server) {
	t.Helper()
	s := New()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv
}

// noRedirect is a client that reports redirects instead of following
// them, so that tests see the post/redirect/get answers.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func do(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func get(t *testing.T, srv *httptest.Server, path string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// post sends a form the way a browser does: a plain form post, or with
// asJSON the pages' fetch call (same body, Accept: application/json).
func post(t *testing.T, srv *httptest.Server, path string, form url.Values, asJSON bool) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if asJSON {
		req.Header.Set("Accept", "application/json")
	}
	return do(t, req)
}

// page fetches a page, expects the status and returns its tree after the
// checks that every page must pass.
func page(t *testing.T, srv *httptest.Server, path string, status int) *node {
	t.Helper()
	resp, body := get(t, srv, path)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: status %d, want %d\n%s", path, resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	doc, err := parseHTML(strings.NewReader(body))
	if err != nil {
		t.Fatalf("GET %s: %v\n%s", path, err, body)
	}
	checkAccessible(t, path, doc)
	return doc
}

// checkAccessible checks what the browser driver relies on: unique ids,
// labels and ARIA references that point somewhere, a name for every
// control, header cells for every table.
func checkAccessible(t *testing.T, path string, doc *node) {
	t.Helper()
	ids := map[string]bool{}
	for _, n := range doc.All(func(n *node) bool { return n.Has("id") }) {
		if ids[n.Attr("id")] {
			t.Errorf("%s: duplicate id %q", path, n.Attr("id"))
		}
		ids[n.Attr("id")] = true
	}
	labelled := map[string]bool{}
	for _, l := range doc.Tags("label") {
		if !ids[l.Attr("for")] {
			t.Errorf("%s: <label for=%q> points to no element", path, l.Attr("for"))
		}
		labelled[l.Attr("for")] = true
	}
	for _, attr := range []string{"aria-labelledby", "aria-describedby", "aria-controls"} {
		for _, n := range doc.All(func(n *node) bool { return n.Has(attr) }) {
			for _, id := range strings.Fields(n.Attr(attr)) {
				if !ids[id] {
					t.Errorf("%s: <%s %s=%q> points to no element", path, n.Tag, attr, id)
				}
			}
		}
	}
	for _, n := range doc.All(func(n *node) bool {
		return (n.Tag == "input" && n.Attr("type") != "hidden") || n.Tag == "select" || n.Tag == "textarea"
	}) {
		if !labelled[n.Attr("id")] && n.Attr("aria-label") == "" {
			t.Errorf("%s: <%s id=%q> has no label", path, n.Tag, n.Attr("id"))
		}
	}
	for _, b := range doc.Tags("button") {
		if b.Text() == "" && b.Attr("aria-label") == "" {
			t.Errorf("%s: a button has no name", path)
		}
	}
	for _, tbl := range doc.Tags("table") {
		if tbl.Attr("aria-label") == "" {
			t.Errorf("%s: a table has no aria-label", path)
		}
		if len(tbl.Tags("th")) == 0 || len(tbl.Tags("thead")) != 1 {
			t.Errorf("%s: table %q has no header row", path, tbl.Attr("aria-label"))
		}
	}
	if titles := doc.Tags("title"); len(titles) != 1 || titles[0].Text() == "" {
		t.Errorf("%s: no title", path)
	}
}

func title(doc *node) string { return doc.Tags("title")[0].Text() }

// labelOf is the text of the label of the element with the id.
func labelOf(doc *node, id string) string {
	l := doc.First(func(n *node) bool { return n.Tag == "label" && n.Attr("for") == id })
	if l == nil {
		return ""
	}
	return l.Text()
}

func buttons(doc *node) []string {
	var out []string
	for _, b := range doc.Tags("button") {
		out = append(out, b.Text())
	}
	return out
}

func headers(tbl *node) []string {
	var out []string
	for _, th := range tbl.Tags("th") {
		out = append(out, th.Text())
	}
	return out
}

// bodyRows are a table's data rows, as the texts of their cells.
func bodyRows(tbl *node) [][]string {
	var out [][]string
	for _, tr := range tbl.Tags("tbody")[0].Tags("tr") {
		var row []string
		for _, td := range tr.Tags("td") {
			row = append(row, td.Text())
		}
		out = append(out, row)
	}
	return out
}

func wantEqual[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

func TestPages(t *testing.T) {
	_, srv := newServer(t)

	t.Run("index", func(t *testing.T) {
		doc := page(t, srv, "/", 200)
		var hrefs []string
		for _, a := range doc.Tags("main")[0].Tags("a") {
			hrefs = append(hrefs, a.Attr("href"))
		}
		for _, p := range []string{"/wiki", "/notes", "/reading-list", "/form", "/files", "/mail", "/sheet"} {
			if !slices.Contains(hrefs, p) {
				t.Errorf("the index does not link to %s (links: %v)", p, hrefs)
			}
		}
	})

	t.Run("wiki", func(t *testing.T) {
		doc := page(t, srv, "/wiki", 200)
		wantEqual(t, "title", title(doc), "Wiki")
		q := doc.ByID("q")
		if q == nil || q.Tag != "input" || q.Attr("type") != "text" || q.Attr("aria-label") != "Search" || q.Attr("name") != "q" {
			t.Fatalf("search box: %+v", q)
		}
		if !slices.Contains(buttons(doc), "Search") {
			t.Errorf("no Search button: %v", buttons(doc))
		}
		if got := len(doc.ByID("articles-heading").Parent.Tags("li")); got != len(articles) {
			t.Errorf("the article list has %d items, want %d", got, len(articles))
		}
	})

	t.Run("search results", func(t *testing.T) {
		doc := page(t, srv, "/wiki?q=Kilimanjaro", 200)
		list := doc.Named("ul", "Search results")
		if list == nil {
			t.Fatal("no list named Search results")
		}
		items := list.Tags("li")
		if len(items) < 3 {
			t.Fatalf("%d results for Kilimanjaro, want several", len(items))
		}
		first := items[0].Tags("a")[0]
		wantEqual(t, "first result", first.Text(), "Kilimanjaro")
		wantEqual(t, "first result's link", first.Attr("href"), "/wiki/Kilimanjaro")
		wantEqual(t, "search box value", doc.ByID("q").Attr("value"), "Kilimanjaro")

		doc = page(t, srv, "/wiki?q=xyzzy", 200)
		if doc.Named("ul", "Search results") != nil || !strings.Contains(doc.ByID("result-count").Text(), "No article") {
			t.Error("a search without results shows a list or no message")
		}
	})

	t.Run("article", func(t *testing.T) {
		doc := page(t, srv, "/wiki/Mount_Kenya", 200)
		wantEqual(t, "title", title(doc), "Mount Kenya – Wiki")
		wantEqual(t, "heading", doc.Tags("h1")[0].Text(), "Mount Kenya")
		if intro := doc.ByID("intro"); intro == nil || !strings.HasPrefix(intro.Text(), "Mount Kenya is") {
			t.Errorf("intro: %v", intro)
		}
		if n := len(doc.Tags("article")[0].Tags("p")); n < 4 {
			t.Errorf("%d paragraphs, want several", n)
		}
		if doc.ByID("abstract") != nil {
			t.Error("a mountain has an abstract")
		}
		if doc.ByID("q") == nil {
			t.Error("no search box on an article")
		}

		doc = page(t, srv, "/wiki/Attention_Is_All_You_Need", 200)
		abs := doc.ByID("abstract")
		if abs == nil || abs.Tag != "p" || abs.Attr("class") != "abstract" {
			t.Fatalf("abstract paragraph: %+v", abs)
		}
		sec := abs.Parent
		wantEqual(t, "abstract heading", doc.ByID(sec.Attr("aria-labelledby")).Text(), "Abstract")
		if !strings.HasPrefix(abs.Text(), "Models that turn one sequence") {
			t.Errorf("abstract: %q", abs.Text())
		}

		// Other spellings of the address find the article too.
		for _, p := range []string{"/wiki/Attention%20Is%20All%20You%20Need", "/wiki/attention_is_all_you_need", "/wiki/" + url.PathEscape("Transformer_(machine_learning)")} {
			page(t, srv, p, 200)
		}
	})

	t.Run("notes", func(t *testing.T) {
		doc := page(t, srv, "/notes", 200)
		wantEqual(t, "title", title(doc), "Notes")
		n := doc.ByID("notes")
		if n == nil || n.Tag != "textarea" || n.Attr("aria-label") != "Notes" || n.Attr("name") != "notes" {
			t.Fatalf("notes box: %+v", n)
		}
		if !slices.Contains(buttons(doc), "Save") {
			t.Errorf("no Save button: %v", buttons(doc))
		}
	})

	t.Run("reading list", func(t *testing.T) {
		doc := page(t, srv, "/reading-list", 200)
		wantEqual(t, "title", title(doc), "Reading list")
		tbl := doc.Named("table", "Reading list")
		if tbl == nil {
			t.Fatal("no table named Reading list")
		}
		wantEqual(t, "headers", headers(tbl), []string{"Title", "Authors", "Abstract"})
		rows := bodyRows(tbl)
		if len(rows) < 4 || len(rows) > 5 {
			t.Errorf("%d papers, want 4 or 5", len(rows))
		}
		for i, r := range rows {
			if r[0] == "" || r[1] == "" || r[2] != "" {
				t.Errorf("row %d = %q: want a title, authors and an empty abstract", i, r)
			}
		}
		// role=cell: the driver gives a contenteditable element the role
		// textbox unless it has an explicit role, and only cells have a
		// table position (row.cell("Abstract")).
		for _, td := range tbl.Tags("td") {
			if td.Attr("contenteditable") != "true" || td.Attr("role") != "cell" || td.Attr("data-field") == "" || td.Attr("data-row") == "" {
				t.Errorf("cell %q is not editable: %v", td.Text(), td.Attrs)
			}
		}
		if !slices.Contains(buttons(doc), "Save") {
			t.Errorf("no Save button: %v", buttons(doc))
		}
	})

	t.Run("form", func(t *testing.T) {
		doc := page(t, srv, "/form", 200)
		region := doc.Named("section", "Contact form")
		if region == nil {
			t.Fatal("no region Contact form")
		}
		for id, label := range map[string]string{"name": "Name", "email": "Email", "phone": "Phone", "country": "Country", "newsletter": "Newsletter"} {
			wantEqual(t, "label of "+id, labelOf(doc, id), label)
		}
		for id, typ := range map[string]string{"name": "text", "email": "email", "phone": "tel", "newsletter": "checkbox"} {
			wantEqual(t, "type of "+id, doc.ByID(id).Attr("type"), typ)
		}
		country := doc.ByID("country")
		wantEqual(t, "country box", country.Tag, "select")
		var opts []string
		for _, o := range country.Tags("option")[1:] {
			opts = append(opts, o.Text())
		}
		wantEqual(t, "countries", opts, countries)
		wantEqual(t, "buttons", buttons(region), []string{"Submit"})
		if doc.ByID("confirmation") != nil {
			t.Error("a confirmation before anything was submitted")
		}
	})

	t.Run("files", func(t *testing.T) {
		doc := page(t, srv, "/files", 200)
		wantEqual(t, "title", title(doc), "Files")
		list := doc.Named("ul", "Files")
		if list == nil {
			t.Fatal("no list named Files")
		}
		var names []string
		for _, li := range list.Tags("li") {
			names = append(names, li.First(func(n *node) bool { return n.Attr("class") == "file-name" }).Text())
			wantEqual(t, "buttons of "+li.Attr("data-name"), buttons(li), []string{"Rename"})
		}
		wantEqual(t, "files", names, initialFiles)
		dlg := doc.Named("dialog", "Rename")
		if dlg == nil {
			t.Fatal("no dialog named Rename")
		}
		if dlg.Has("open") {
			t.Error("the dialog is open before Rename was clicked")
		}
		wantEqual(t, "label of the name box", labelOf(doc, "rename-name"), "Name")
		if !doc.ByID("rename-name").Within("dialog") {
			t.Error("the Name box is not in the dialog")
		}
		wantEqual(t, "dialog buttons", buttons(dlg), []string{"OK", "Cancel"})

		// Without script, Rename opens the dialog through the address.
		doc = page(t, srv, "/files?rename=todo.txt", 200)
		if !doc.Named("dialog", "Rename").Has("open") || doc.ByID("rename-name").Attr("value") != "todo.txt" || doc.ByID("rename-from").Attr("value") != "todo.txt" {
			t.Error("/files?rename=todo.txt does not open the dialog for todo.txt")
		}
	})

	t.Run("mail", func(t *testing.T) {
		doc := page(t, srv, "/mail", 200)
		wantEqual(t, "title", title(doc), "Mail")
		inbox := doc.Named("ul", "Inbox")
		if inbox == nil {
			t.Fatal("no list named Inbox")
		}
		items := inbox.Tags("li")
		if len(items) != len(messages) {
			t.Fatalf("%d messages, want %d", len(items), len(messages))
		}
		for i, li := range items {
			a := li.Tags("a")[0]
			wantEqual(t, "subject", a.Text(), messages[i].Subject)
			wantEqual(t, "link", a.Attr("href"), "/mail/"+strconv.Itoa(messages[i].ID))
		}
		for i := 1; i < len(messages); i++ {
			if messages[i].Date > messages[i-1].Date {
				t.Errorf("the inbox is not newest first at %d", i)
			}
		}
		for id, label := range map[string]string{"user": "User name", "password": "Password"} {
			wantEqual(t, "label of "+id, labelOf(doc, id), label)
		}
		if !slices.Contains(buttons(doc), "Sign in") {
			t.Errorf("no Sign in button: %v", buttons(doc))
		}

		doc = page(t, srv, "/mail/4", 200)
		subject := doc.ByID("subject")
		wantEqual(t, "Subject", subject.Text(), messageByID(4).Subject)
		wantEqual(t, "label of the subject", labelOf(doc, "subject"), "Subject")
		// The driver reads a label only from labelable elements (el.labels)
		// and takes an explicit role over the tag's: output role=text.
		wantEqual(t, "subject element", subject.Tag+" role="+subject.Attr("role"), "output role=text")
		wantEqual(t, "buttons", buttons(doc.Named("section", "Message")), []string{"Reply", "Send"})
		wantEqual(t, "label of the reply box", labelOf(doc, "reply"), "Reply")
		wantEqual(t, "reply box", doc.ByID("reply").Tag, "textarea")
		wantEqual(t, "label of the PIN box", labelOf(doc, "pin"), "PIN")
		wantEqual(t, "PIN box type", doc.ByID("pin").Attr("type"), "password")
		if !doc.ByID("reply-form").Has("hidden") {
			t.Error("the reply form shows before Reply was clicked")
		}
		// Without script, Reply opens the form through the address.
		if page(t, srv, "/mail/4?reply=1", 200).ByID("reply-form").Has("hidden") {
			t.Error("/mail/4?reply=1 does not show the reply form")
		}
	})

	t.Run("sheet", func(t *testing.T) {
		doc := page(t, srv, "/sheet", 200)
		wantEqual(t, "title", title(doc), "Sheet")
		tbl := doc.Named("table", "Orders")
		if tbl == nil {
			t.Fatal("no table named Orders")
		}
		wantEqual(t, "headers", headers(tbl), []string{"Name", "Email", "Phone", "Country", "Amount"})
		rows := bodyRows(tbl)
		if len(rows) < 4 || len(rows) > 6 {
			t.Errorf("%d orders, want 4 to 6", len(rows))
		}
		wantEqual(t, "first amount", rows[0][4], "1,234.50")
		wantEqual(t, "label of the total box", labelOf(doc, "total"), "Total")
		if !slices.Contains(buttons(doc), "Save") {
			t.Errorf("no Save button: %v", buttons(doc))
		}
		// The download link's CSV is the table, header row first.
		resp, body := get(t, srv, "/sheet/orders.csv")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Disposition") != `attachment; filename="orders.csv"` {
			t.Fatalf("GET /sheet/orders.csv: %d %q", resp.StatusCode, resp.Header.Get("Content-Disposition"))
		}
		recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if err != nil || len(recs) != len(rows)+1 {
			t.Fatalf("orders.csv: %d records (%v), want %d", len(recs), err, len(rows)+1)
		}
		wantEqual(t, "csv header", recs[0], headers(tbl))
		for i, r := range rows {
			wantEqual(t, fmt.Sprintf("csv row %d", i), recs[i+1], r)
		}
	})

	t.Run("static", func(t *testing.T) {
		for _, p := range []string{"/static/site.css", "/static/site.js"} {
			if resp, body := get(t, srv, p); resp.StatusCode != 200 || len(body) < 100 {
				t.Errorf("GET %s: %d, %d bytes", p, resp.StatusCode, len(body))
			}
		}
		if resp, body := get(t, srv, "/healthz"); resp.StatusCode != 200 || body != "ok\n" {
			t.Errorf("GET /healthz: %d %q", resp.StatusCode, body)
		}
	})
}

func TestNotFound(t *testing.T) {
	_, srv := newServer(t)
	doc := page(t, srv, "/wiki/Atlantis", 404)
	if a := doc.First(func(n *node) bool { return n.Tag == "a" && strings.HasPrefix(n.Attr("href"), "/wiki?q=") }); a == nil || !strings.Contains(a.Text(), "Atlantis") {
		t.Error("the missing article's page does not offer a search")
	}
	for _, p := range []string{"/nowhere", "/mail/99", "/mail/abc", "/wiki/Kilimanjaro/more"} {
		page(t, srv, p, 404)
	}
	if resp, _ := post(t, srv, "/wiki", url.Values{}, false); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /wiki: %d, want 405", resp.StatusCode)
	}
}

func TestArticles(t *testing.T) {
	if len(articles) < 12 {
		t.Errorf("%d articles, want about 12", len(articles))
	}
	for _, a := range articles {
		if len(a.Sections) < 2 || len(strings.Split(a.Intro(), ". ")) < 2 {
			t.Errorf("%s: want a multi-sentence introduction and sections", a.Title)
		}
	}
	for _, need := range []string{"Kilimanjaro", "Mount Kenya", "Mount Everest", "Aconcagua", "Serengeti", "Zanzibar"} {
		if findArticle(need) == nil {
			t.Errorf("no article %s (the examples use it)", need)
		}
	}
	// Every paper of the reading list has an article with an abstract.
	for _, p := range initialPapers {
		a := findArticle(p.Title)
		if a == nil {
			t.Errorf("no article for the paper %q", p.Title)
			continue
		}
		if len(strings.Split(a.Abstract(), ". ")) < 3 {
			t.Errorf("%s: the abstract is missing or short", p.Title)
		}
	}
	// The orders can be typed into the form, and their amounts add up to
	// what sum_column.cog should type.
	var cents int
	for _, o := range orders {
		if !slices.Contains(countries, o.Country) {
			t.Errorf("order country %q is not an option of the form", o.Country)
		}
		c, err := strconv.Atoi(strings.NewReplacer(",", "", ".", "").Replace(o.Amount))
		if err != nil || !strings.Contains(o.Amount, ".") {
			t.Errorf("amount %q is not like 1,234.50", o.Amount)
		}
		cents += c
	}
	wantEqual(t, "total of the amounts", fmt.Sprintf("%d.%02d", cents/100, cents%100), "7986.45")
}

func TestSearch(t *testing.T) {
	titles := func(rs []result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.Article.Title)
		}
		return out
	}
	tests := []struct {
		query    string
		first    string
		atLeast  int
		contains []string
	}{
		{query: "Kilimanjaro", first: "Kilimanjaro", atLeast: 3, contains: []string{"Mount Kenya", "Serengeti"}},
		{query: "Mount Kenya", first: "Mount Kenya", atLeast: 3, contains: []string{"Kilimanjaro"}},
		{query: "mount everest", first: "Mount Everest", atLeast: 2},
		{query: "Serengeti", first: "Serengeti", atLeast: 2},
		{query: "zanzibar", first: "Zanzibar", atLeast: 2},
		{query: "mountains", atLeast: 5},
		{query: "attention", first: "Attention Is All You Need", atLeast: 2, contains: []string{"Transformer (machine learning)"}},
		{query: "Turing", atLeast: 2, contains: []string{"Computing Machinery and Intelligence", "Turing test"}},
		{query: "xyzzy"},
		{query: "   "},
	}
	// A paper's title, as typed or in capitals, finds the paper first.
	for _, p := range initialPapers {
		tests = append(tests,
			struct {
				query    string
				first    string
				atLeast  int
				contains []string
			}{query: p.Title, first: p.Title, atLeast: 1},
			struct {
				query    string
				first    string
				atLeast  int
				contains []string
			}{query: strings.ToUpper(p.Title), first: p.Title, atLeast: 1})
	}
	for _, tc := range tests {
		got := titles(search(tc.query))
		if len(got) < tc.atLeast || (tc.atLeast == 0 && len(got) > 0) {
			t.Errorf("search(%q) = %q, want at least %d results", tc.query, got, tc.atLeast)
			continue
		}
		if tc.first != "" && got[0] != tc.first {
			t.Errorf("search(%q) = %q, want %q first", tc.query, got, tc.first)
		}
		for _, c := range tc.contains {
			if !slices.Contains(got, c) {
				t.Errorf("search(%q) = %q, want %q among them", tc.query, got, c)
			}
		}
	}
}

// apiState reads GET /api/state.
func apiState(t *testing.T, srv *httptest.Server) State {
	t.Helper()
	resp, body := get(t, srv, "/api/state")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /api/state: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var st State
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func wantStatus(t *testing.T, what string, resp *http.Response, body string, code int) {
	t.Helper()
	if resp.StatusCode != code {
		t.Fatalf("%s: status %d, want %d\n%s", what, resp.StatusCode, code, body)
	}
}

func wantRedirect(t *testing.T, what string, resp *http.Response, body, to string) {
	t.Helper()
	wantStatus(t, what, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != to {
		t.Fatalf("%s: redirects to %q, want %q", what, loc, to)
	}
}

func TestStateShape(t *testing.T) {
	_, srv := newServer(t)
	_, body := get(t, srv, "/api/state")
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	wantEqual(t, "keys", keys, []string{"files", "mail_user", "notes", "reading_list", "replies", "submissions", "total"})
	for _, k := range []string{"submissions", "replies"} {
		wantEqual(t, k, string(m[k]), "[]")
	}
	var papers []map[string]string
	if err := json.Unmarshal(m["reading_list"], &papers); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "first paper", papers[0], map[string]string{"title": initialPapers[0].Title, "authors": initialPapers[0].Authors, "abstract": ""})
}

func TestNotes(t *testing.T) {
	s, srv := newServer(t)

	// The Save button without script: a form post (browsers send CRLF).
	resp, body := post(t, srv, "/notes", url.Values{"notes": {"first line\r\nsecond line\r\n"}}, false)
	wantRedirect(t, "save", resp, body, "/notes?saved=1")
	wantEqual(t, "notes", apiState(t, srv).Notes, "first line\nsecond line\n")
	doc := page(t, srv, "/notes?saved=1", 200)
	wantEqual(t, "textarea", doc.ByID("notes").RawText(), "first line\nsecond line\n")
	wantEqual(t, "status", doc.ByID("save-status").Text(), "Saved.")

	// Autosave: the script's fetch call with a revision.
	resp, body = post(t, srv, "/notes", url.Values{"notes": {"Kilimanjaro: the highest mountain in Africa.\n"}, "rev": {"2000000000000.5"}}, true)
	wantStatus(t, "autosave", resp, body, 200)
	var ans map[string]any
	if err := json.Unmarshal([]byte(body), &ans); err != nil || ans["ok"] != true || ans["applied"] != true {
		t.Errorf("autosave answer %s", body)
	}
	// A save that a newer one overtook is dropped.
	resp, body = post(t, srv, "/notes", url.Values{"notes": {"Kilimanjaro"}, "rev": {"2000000000000.1"}}, true)
	wantStatus(t, "stale autosave", resp, body, 200)
	if !strings.Contains(body, `"applied": false`) {
		t.Errorf("stale autosave answer %s", body)
	}
	wantEqual(t, "notes", s.State().Notes, "Kilimanjaro: the highest mountain in Africa.\n")

	resp, body = post(t, srv, "/notes", url.Values{"other": {"x"}}, true)
	wantStatus(t, "post without notes", resp, body, 400)
	if !strings.Contains(body, `"error"`) {
		t.Errorf("error answer %s", body)
	}
}

func TestReadingList(t *testing.T) {
	_, srv := newServer(t)

	// What the script posts when a cell changes: one field, with rev.
	resp, body := post(t, srv, "/reading-list", url.Values{"abstract-0": {"  The Transformer uses attention only.  "}, "rev": {"1"}}, true)
	wantStatus(t, "autosave abstract", resp, body, 200)
	resp, body = post(t, srv, "/reading-list", url.Values{"title-2": {"COMPUTING MACHINERY AND INTELLIGENCE"}}, true)
	wantStatus(t, "autosave title", resp, body, 200)
	// The Save button without script.
	resp, body = post(t, srv, "/reading-list", url.Values{"authors-1": {"C. E. Shannon"}}, false)
	wantRedirect(t, "save", resp, body, "/reading-list?saved=1")

	st := apiState(t, srv)
	wantEqual(t, "abstract 0", st.ReadingList[0].Abstract, "The Transformer uses attention only.")
	wantEqual(t, "title 2", st.ReadingList[2].Title, "COMPUTING MACHINERY AND INTELLIGENCE")
	wantEqual(t, "authors 1", st.ReadingList[1].Authors, "C. E. Shannon")
	wantEqual(t, "title 0", st.ReadingList[0].Title, initialPapers[0].Title)

	rows := bodyRows(page(t, srv, "/reading-list", 200).Named("table", "Reading list"))
	wantEqual(t, "row 0 shown", rows[0], []string{initialPapers[0].Title, initialPapers[0].Authors, "The Transformer uses attention only."})

	for _, bad := range []url.Values{{"abstract-9": {"x"}}, {"summary-0": {"x"}}, {"abstract-x": {"x"}}} {
		resp, body := post(t, srv, "/reading-list", bad, true)
		wantStatus(t, fmt.Sprint(bad), resp, body, 400)
	}
	if got := apiState(t, srv).ReadingList; !reflect.DeepEqual(got, st.ReadingList) {
		t.Errorf("a refused post changed the list: %v", got)
	}
}

func TestOrderForm(t *testing.T) {
	_, srv := newServer(t)
	resp, body := post(t, srv, "/form", url.Values{
		"name": {"Ada Lovelace"}, "email": {"ada.lovelace@example.com"}, "phone": {"+442079460000"},
		"country": {"United Kingdom"}, "newsletter": {"yes"},
	}, false)
	wantRedirect(t, "submit", resp, body, "/form?submitted=1")
	resp, body = post(t, srv, "/form", url.Values{"name": {"Grace Hopper"}, "email": {"grace@navy.example"}, "country": {""}}, false)
	wantRedirect(t, "second submit", resp, body, "/form?submitted=2")

	wantEqual(t, "submissions", apiState(t, srv).Submissions, []Submission{
		{Name: "Ada Lovelace", Email: "ada.lovelace@example.com", Phone: "+442079460000", Country: "United Kingdom", Newsletter: true},
		{Name: "Grace Hopper", Email: "grace@navy.example"},
	})

	doc := page(t, srv, "/form?submitted=1", 200)
	if c := doc.ByID("confirmation"); c == nil || c.Attr("role") != "status" || !strings.Contains(c.Text(), "Ada Lovelace") {
		t.Errorf("confirmation: %v", c)
	}
	wantEqual(t, "name box after submitting", doc.ByID("name").Attr("value"), "")

	// A form with mistakes comes back with the values and the errors.
	resp, body = post(t, srv, "/form", url.Values{"name": {""}, "email": {"nobody"}, "phone": {"123"}, "country": {"Atlantis"}}, false)
	wantStatus(t, "invalid submit", resp, body, http.StatusUnprocessableEntity)
	doc, err := parseHTML(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	checkAccessible(t, "invalid form", doc)
	for _, id := range []string{"name", "email", "country"} {
		if doc.ByID(id).Attr("aria-invalid") != "true" || doc.ByID(id+"-error") == nil {
			t.Errorf("%s is not marked invalid", id)
		}
	}
	wantEqual(t, "phone kept", doc.ByID("phone").Attr("value"), "123")
	if n := len(apiState(t, srv).Submissions); n != 2 {
		t.Errorf("%d submissions after an invalid one, want 2", n)
	}
}

func TestRename(t *testing.T) {
	_, srv := newServer(t)

	// The dialog's fetch call.
	resp, body := post(t, srv, "/files/rename", url.Values{"from": {"report.txt"}, "name": {" report.md "}}, true)
	wantStatus(t, "rename", resp, body, 200)
	var ans map[string]any
	if err := json.Unmarshal([]byte(body), &ans); err != nil || ans["from"] != "report.txt" || ans["name"] != "report.md" || ans["ok"] != true {
		t.Errorf("rename answer %s", body)
	}
	// The same name again is fine (batch_rename types budget.csv unchanged).
	resp, body = post(t, srv, "/files/rename", url.Values{"from": {"budget.csv"}, "name": {"budget.csv"}}, true)
	wantStatus(t, "rename to the same name", resp, body, 200)
	// The dialog without script.
	resp, body = post(t, srv, "/files/rename", url.Values{"from": {"todo.txt"}, "name": {"todo.md"}}, false)
	wantRedirect(t, "rename without script", resp, body, "/files?renamed=todo.md")

	wantEqual(t, "files", apiState(t, srv).Files, []string{"report.md", "notes.txt", "todo.md", "budget.csv"})
	doc := page(t, srv, "/files?renamed=todo.md", 200)
	wantEqual(t, "status", doc.ByID("save-status").Text(), "Renamed to todo.md.")

	for _, tc := range []struct {
		from, name string
		code       int
	}{
		{"report.txt", "x.txt", 404},
		{"notes.txt", "report.md", 409},
		{"notes.txt", "  ", 400},
		{"notes.txt", "a/b", 400},
	} {
		resp, body := post(t, srv, "/files/rename", url.Values{"from": {tc.from}, "name": {tc.name}}, true)
		wantStatus(t, tc.from+" → "+tc.name, resp, body, tc.code)
		if !strings.Contains(body, `"error"`) {
			t.Errorf("%s → %s: answer %s", tc.from, tc.name, body)
		}
	}
	// Without script a refused rename shows the dialog again with the error.
	resp, body = post(t, srv, "/files/rename", url.Values{"from": {"notes.txt"}, "name": {"report.md"}}, false)
	wantStatus(t, "refused rename without script", resp, body, 409)
	doc, err := parseHTML(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if !doc.Named("dialog", "Rename").Has("open") || doc.ByID("rename-error").Has("hidden") || !strings.Contains(doc.ByID("rename-error").Text(), "already exists") {
		t.Error("the refused rename does not show the dialog with the error")
	}
	wantEqual(t, "files", apiState(t, srv).Files, []string{"report.md", "notes.txt", "todo.md", "budget.csv"})
}

func TestMail(t *testing.T) {
	_, srv := newServer(t)
	const pin = "4711"
	resp, body := post(t, srv, "/mail/4/reply", url.Values{"body": {"Hi Grace,\r\n3 pm works for me."}, "pin": {pin}}, false)
	wantRedirect(t, "send", resp, body, "/mail/4?sent=1")
	resp, body = post(t, srv, "/mail/3/reply", url.Values{"body": {"Yes, I will send them."}}, true)
	wantStatus(t, "send by fetch", resp, body, 200)

	wantEqual(t, "replies", apiState(t, srv).Replies, []Reply{
		{MessageID: 4, To: "grace@example.org", Subject: "Re: " + messageByID(4).Subject, Body: "Hi Grace,\n3 pm works for me.", PINGiven: true},
		{MessageID: 3, To: "alan@example.ac.uk", Subject: "Re: " + messageByID(3).Subject, Body: "Yes, I will send them."},
	})
	if _, body := get(t, srv, "/api/state"); strings.Contains(body, pin) {
		t.Error("the state holds the PIN")
	}
	doc := page(t, srv, "/mail/4?sent=1", 200)
	wantEqual(t, "sent status", doc.ByID("sent-status").Text(), "Reply sent.")
	if doc.ByID("pin").Attr("value") != "" {
		t.Error("the page shows the PIN again")
	}

	resp, body = post(t, srv, "/mail/4/reply", url.Values{"body": {"  "}, "pin": {pin}}, false)
	wantStatus(t, "empty reply", resp, body, http.StatusUnprocessableEntity)
	if strings.Contains(body, pin) {
		t.Error("the error page shows the PIN")
	}
	resp, body = post(t, srv, "/mail/99/reply", url.Values{"body": {"x"}}, false)
	wantStatus(t, "reply to no message", resp, body, 404)

	// Signing in keeps the user name, never the password.
	resp, body = post(t, srv, "/mail/sign-in", url.Values{"user": {"ada"}, "password": {"s3cret"}}, false)
	wantRedirect(t, "sign in", resp, body, "/mail")
	if _, body := get(t, srv, "/api/state"); strings.Contains(body, "s3cret") {
		t.Error("the state holds the password")
	}
	wantEqual(t, "user", apiState(t, srv).MailUser, "ada")
	wantEqual(t, "signed in", page(t, srv, "/mail", 200).ByID("mail-user").Text(), "ada")
	resp, body = post(t, srv, "/mail/sign-in", url.Values{"user": {"ada"}}, false)
	wantStatus(t, "sign in without password", resp, body, http.StatusUnprocessableEntity)
	resp, body = post(t, srv, "/mail/sign-out", nil, false)
	wantRedirect(t, "sign out", resp, body, "/mail")
	wantEqual(t, "user", apiState(t, srv).MailUser, "")
}

func TestSheet(t *testing.T) {
	_, srv := newServer(t)
	resp, body := post(t, srv, "/sheet", url.Values{"total": {"7986.45"}, "rev": {"5"}}, true)
	wantStatus(t, "autosave", resp, body, 200)
	wantEqual(t, "total", apiState(t, srv).Total, "7986.45")
	resp, body = post(t, srv, "/sheet", url.Values{"total": {" 100.00 "}}, false)
	wantRedirect(t, "save", resp, body, "/sheet?saved=1")
	wantEqual(t, "total", apiState(t, srv).Total, "100.00")
	wantEqual(t, "total box", page(t, srv, "/sheet", 200).ByID("total").Attr("value"), "100.00")
}

func TestReset(t *testing.T) {
	s, srv := newServer(t)
	initial := apiState(t, srv)
	post(t, srv, "/notes", url.Values{"notes": {"x"}, "rev": {"9e15"}}, true)
	post(t, srv, "/reading-list", url.Values{"abstract-0": {"x"}}, true)
	post(t, srv, "/form", url.Values{"name": {"x"}, "email": {"x@y"}}, false)
	post(t, srv, "/files/rename", url.Values{"from": {"notes.txt"}, "name": {"n.md"}}, true)
	post(t, srv, "/mail/1/reply", url.Values{"body": {"x"}}, false)
	post(t, srv, "/mail/sign-in", url.Values{"user": {"x"}, "password": {"y"}}, false)
	post(t, srv, "/sheet", url.Values{"total": {"1"}}, false)
	changed := apiState(t, srv)
	if reflect.DeepEqual(changed, initial) {
		t.Fatal("nothing changed")
	}

	resp, body := post(t, srv, "/api/reset", nil, false)
	wantStatus(t, "reset", resp, body, 200)
	var answered State
	if err := json.Unmarshal([]byte(body), &answered); err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "state answered by reset", answered, initial)
	wantEqual(t, "state after reset", apiState(t, srv), initial)
	wantEqual(t, "State() after reset", s.State(), initial)

	// Reset forgets the revisions too: an edit after it is not "stale".
	post(t, srv, "/notes", url.Values{"notes": {"after"}, "rev": {"1"}}, true)
	wantEqual(t, "notes after reset", s.State().Notes, "after")

	// State returns a copy.
	st := s.State()
	st.Files[0] = "changed"
	st.ReadingList[0].Title = "changed"
	if s.State().Files[0] == "changed" || s.State().ReadingList[0].Title == "changed" {
		t.Error("State() shares its slices with the site")
	}
}

// TestConcurrent runs the requests of several browser tabs at once; run it
// with -race.
func TestConcurrent(t *testing.T) {
	s, srv := newServer(t)
	const workers, rounds = 8, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*8)
	check := func(what string, resp *http.Response, err error, want int) {
		if err != nil {
			errs <- fmt.Errorf("%s: %v", what, err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want {
			errs <- fmt.Errorf("%s: status %d, want %d", what, resp.StatusCode, want)
		}
	}
	postForm := func(path string, v url.Values, asJSON bool) (*http.Response, error) {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if asJSON {
			req.Header.Set("Accept", "application/json")
		}
		return noRedirect.Do(req)
	}
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				tag := fmt.Sprintf("%d.%d", w, i)
				resp, err := postForm("/notes", url.Values{"notes": {tag}, "rev": {strconv.Itoa(i)}}, true)
				check("notes", resp, err, 200)
				resp, err = postForm("/reading-list", url.Values{fmt.Sprintf("abstract-%d", w%len(initialPapers)): {tag}}, true)
				check("cell", resp, err, 200)
				resp, err = postForm("/form", url.Values{"name": {tag}, "email": {tag + "@x"}}, false)
				check("form", resp, err, http.StatusSeeOther)
				resp, err = postForm("/mail/2/reply", url.Values{"body": {tag}, "pin": {"1"}}, false)
				check("reply", resp, err, http.StatusSeeOther)
				resp, err = postForm("/sheet", url.Values{"total": {tag}}, true)
				check("total", resp, err, 200)
				// Rename a worker's own file back and forth; only the
				// first worker owns one.
				if w == 0 {
					from, to := "todo.txt", "todo.md"
					if i%2 == 1 {
						from, to = to, from
					}
					resp, err = postForm("/files/rename", url.Values{"from": {from}, "name": {to}}, true)
					check("rename", resp, err, 200)
				}
				for _, p := range []string{"/reading-list", "/files", "/api/state", "/wiki?q=mount", "/form?submitted=1"} {
					resp, err := http.Get(srv.URL + p)
					check(p, resp, err, 200)
				}
				_ = s.State()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := s.State()
	if len(st.Submissions) != workers*rounds || len(st.Replies) != workers*rounds {
		t.Errorf("%d submissions and %d replies, want %d each", len(st.Submissions), len(st.Replies), workers*rounds)
	}
	wantEqual(t, "files", st.Files, []string{"report.txt", "notes.txt", "todo.md", "budget.csv"})
}

func TestDiff(t *testing.T) {
	before := initialState()
	after := before.clone()
	after.ReadingList[1].Title = "CHANGED"
	after.Files = append(after.Files, "new.txt")
	after.Notes = "hello"
	got := Diff(before, after)
	want := []string{
		`files[4]: added "new.txt"`,
		`notes: "" → "hello"`,
		fmt.Sprintf(`reading_list[1].title: %q → "CHANGED"`, before.ReadingList[1].Title),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Diff = %q\nwant %q", got, want)
	}
	if d := Diff(before, before.clone()); len(d) != 0 {
		t.Errorf("no change, yet Diff = %q", d)
	}
}
