package site

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

func (s *Site) routes() *http.ServeMux {
	m := http.NewServeMux()
	m.Handle("GET /static/", http.FileServerFS(files))
	m.HandleFunc("GET /{$}", s.index)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	m.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.State())
	})
	m.HandleFunc("POST /api/reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		writeJSON(w, http.StatusOK, s.State())
	})

	m.HandleFunc("GET /wiki", s.wiki)
	m.HandleFunc("GET /wiki/{title}", s.article)
	m.HandleFunc("GET /notes", s.notes)
	m.HandleFunc("POST /notes", s.saveNotes)
	m.HandleFunc("GET /reading-list", s.readingList)
	m.HandleFunc("POST /reading-list", s.saveReadingList)
	s.entryRoutes(m)
	m.HandleFunc("GET /form", s.form)
	m.HandleFunc("POST /form", s.submitForm)
	m.HandleFunc("GET /files", s.files)
	m.HandleFunc("POST /files/rename", s.rename)
	m.HandleFunc("GET /mail", s.mail)
	m.HandleFunc("GET /mail/{id}", s.mail)
	m.HandleFunc("POST /mail/{id}/reply", s.reply)
	m.HandleFunc("POST /mail/sign-in", s.signIn)
	m.HandleFunc("POST /mail/sign-out", s.signOut)
	m.HandleFunc("GET /sheet", s.sheet)
	m.HandleFunc("POST /sheet", s.saveSheet)
	m.HandleFunc("GET /sheet/orders.csv", s.ordersCSV)
	m.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusNotFound, "notfound", notFoundView{frame: frame{Title: "Not found"}, Path: r.URL.Path})
	})
	return m
}

// Templates: templates/layout.html defines the page around the block
// "main" that each other template defines.

var pages = mustParseTemplates()

func mustParseTemplates() map[string]*template.Template {
	funcs := template.FuncMap{
		"inc": func(i int) int { return i + 1 },
	}
	base := template.Must(template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html"))
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		panic(err)
	}
	m := map[string]*template.Template{}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" {
			continue
		}
		m[name] = template.Must(template.Must(base.Clone()).ParseFS(files, n))
	}
	return m
}

// frame is what the layout needs of every page.
type frame struct {
	Title string // the window title
	Page  string // the page's nav entry, marked aria-current
}

func render(w http.ResponseWriter, code int, name string, data any) {
	var buf bytes.Buffer
	if err := pages[name].ExecuteTemplate(&buf, "layout", data); err != nil {
		http.Error(w, "rendering "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write(buf.Bytes())
}

// wantsJSON reports whether the request comes from the pages' script
// (fetch with Accept: application/json), which wants a JSON answer rather
// than a redirect or a page.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// parseForm reads a form post, url-encoded or multipart, of at most 1 MiB.
func parseForm(w http.ResponseWriter, r *http.Request) (url.Values, bool) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	var err error
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		err = r.ParseMultipartForm(1 << 20)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		fail(w, r, http.StatusBadRequest, "cannot read the form: "+err.Error())
		return nil, false
	}
	return r.PostForm, true
}

// fail answers a request that cannot be carried out: JSON for the pages'
// script, plain text otherwise.
func fail(w http.ResponseWriter, r *http.Request, code int, msg string) {
	if wantsJSON(r) {
		writeJSON(w, code, map[string]string{"error": msg})
		return
	}
	http.Error(w, msg, code)
}

// done answers a successful post: JSON for the pages' script, a redirect
// (post/redirect/get) for a plain form.
func done(w http.ResponseWriter, r *http.Request, to string, v map[string]any) {
	if wantsJSON(r) {
		if v == nil {
			v = map[string]any{}
		}
		v["ok"] = true
		writeJSON(w, http.StatusOK, v)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// rev reads the revision an autosaving page sends with a value.
func rev(form url.Values) float64 {
	f, err := strconv.ParseFloat(form.Get("rev"), 64)
	if err != nil {
		return 0
	}
	return f
}

// text normalizes the line breaks of a posted text: browsers send a
// textarea's value with CRLF.
func text(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// Index.

func (s *Site) index(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "index", frame{Title: "cogflow demo site", Page: "index"})
}

type notFoundView struct {
	frame
	Path    string
	Article string // the title asked for, on /wiki/…
}

// Wiki.

type wikiView struct {
	frame
	Query    string
	Searched bool
	Results  []result
	Articles []*article
}

func (s *Site) wiki(w http.ResponseWriter, r *http.Request) {
	v := wikiView{frame: frame{Title: "Wiki", Page: "wiki"}, Query: r.URL.Query().Get("q")}
	if strings.TrimSpace(v.Query) == "" {
		v.Articles = articles
	} else {
		v.Searched = true
		v.Title = "Search results – Wiki"
		v.Results = search(v.Query)
	}
	render(w, http.StatusOK, "wiki", v)
}

type articleView struct {
	frame
	Article *article
}

func (s *Site) article(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("title")
	a := findArticle(name)
	if a == nil {
		render(w, http.StatusNotFound, "notfound", notFoundView{
			frame:   frame{Title: "Not found – Wiki", Page: "wiki"},
			Path:    r.URL.Path,
			Article: strings.ReplaceAll(name, "_", " "),
		})
		return
	}
	render(w, http.StatusOK, "article", articleView{frame: frame{Title: a.Title + " – Wiki", Page: "wiki"}, Article: a})
}

// Notes.

type notesView struct {
	frame
	Notes string
	Saved bool
	// Moved puts Save behind the "More" menu (the moved layout).
	Moved bool
}

func (s *Site) notes(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "notes", notesView{
		frame: frame{Title: "Notes", Page: "notes"},
		Notes: s.State().Notes,
		Saved: r.URL.Query().Has("saved"),
		Moved: s.Layout() == LayoutMoved,
	})
}

func (s *Site) saveNotes(w http.ResponseWriter, r *http.Request) {
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	if !form.Has("notes") {
		fail(w, r, http.StatusBadRequest, "the form has no field notes")
		return
	}
	var applied bool
	s.update(func(st *State) {
		if applied = s.fresh("notes", rev(form)); applied {
			st.Notes = text(form.Get("notes"))
		}
	})
	done(w, r, "/notes?saved=1", map[string]any{"applied": applied})
}

// Reading list.

type readingListView struct {
	frame
	Papers []Paper
	Saved  bool
}

func (s *Site) readingList(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "reading_list", readingListView{
		frame:  frame{Title: "Reading list", Page: "reading-list"},
		Papers: s.State().ReadingList,
		Saved:  r.URL.Query().Has("saved"),
	})
}

// cellField names a reading-list cell in a post: "abstract-2" is the
// Abstract cell of the third row.
var cellField = regexp.MustCompile(`^(title|authors|abstract)-(\d+)$`)

func (s *Site) saveReadingList(w http.ResponseWriter, r *http.Request) {
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	type change struct {
		key, field, value string
		row               int
	}
	var changes []change
	for k, vs := range form {
		if k == "rev" {
			continue
		}
		m := cellField.FindStringSubmatch(k)
		if m == nil {
			fail(w, r, http.StatusBadRequest, fmt.Sprintf("unknown field %q (want title-N, authors-N or abstract-N)", k))
			return
		}
		row, _ := strconv.Atoi(m[2])
		changes = append(changes, change{key: k, field: m[1], row: row, value: strings.TrimSpace(text(vs[0]))})
	}
	var bad string
	applied := 0
	s.update(func(st *State) {
		for _, c := range changes {
			if c.row >= len(st.ReadingList) {
				bad = fmt.Sprintf("no row %d in the reading list", c.row)
				return
			}
		}
		for _, c := range changes {
			if !s.fresh("reading-list/"+c.key, rev(form)) {
				continue
			}
			applied++
			p := &st.ReadingList[c.row]
			switch c.field {
			case "title":
				p.Title = c.value
			case "authors":
				p.Authors = c.value
			case "abstract":
				p.Abstract = c.value
			}
		}
	})
	if bad != "" {
		fail(w, r, http.StatusBadRequest, bad)
		return
	}
	done(w, r, "/reading-list?saved=1", map[string]any{"applied": applied})
}

// Order form.

type formView struct {
	frame
	Countries []string
	Values    Submission
	Errors    map[string]string
	Submitted *Submission // the submission just made, for the confirmation
	Number    int         // its number, from 1
}

func (s *Site) form(w http.ResponseWriter, r *http.Request) {
	v := formView{frame: frame{Title: "Order form", Page: "form"}, Countries: countries}
	if n, err := strconv.Atoi(r.URL.Query().Get("submitted")); err == nil {
		subs := s.State().Submissions
		if n >= 1 && n <= len(subs) {
			v.Submitted, v.Number = &subs[n-1], n
			v.Title = "Order received – Order form"
		}
	}
	render(w, http.StatusOK, "form", v)
}

func (s *Site) submitForm(w http.ResponseWriter, r *http.Request) {
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	sub := Submission{
		Name:       strings.TrimSpace(form.Get("name")),
		Email:      strings.TrimSpace(form.Get("email")),
		Phone:      strings.TrimSpace(form.Get("phone")),
		Country:    strings.TrimSpace(form.Get("country")),
		Newsletter: form.Get("newsletter") != "",
	}
	errs := map[string]string{}
	if sub.Name == "" {
		errs["name"] = "Enter a name."
	}
	if sub.Email == "" {
		errs["email"] = "Enter an e-mail address."
	} else if !strings.Contains(sub.Email, "@") {
		errs["email"] = "An e-mail address needs an @."
	}
	if sub.Country != "" && !slices.Contains(countries, sub.Country) {
		errs["country"] = "Choose a country from the list."
	}
	if len(errs) > 0 {
		if wantsJSON(r) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": "the form has errors", "fields": errs})
			return
		}
		render(w, http.StatusUnprocessableEntity, "form", formView{
			frame:     frame{Title: "Order form", Page: "form"},
			Countries: countries, Values: sub, Errors: errs,
		})
		return
	}
	var n int
	s.update(func(st *State) {
		st.Submissions = append(st.Submissions, sub)
		n = len(st.Submissions)
	})
	done(w, r, fmt.Sprintf("/form?submitted=%d", n), map[string]any{"number": n})
}

// Files.

type filesView struct {
	frame
	Files   []string
	Rename  string // the file whose rename dialog is open (without script)
	NewName string // the name in the dialog's box
	Error   string // why the last rename failed
	Renamed string // the new name after a rename
}

func (s *Site) files(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := filesView{frame: frame{Title: "Files", Page: "files"}, Files: s.State().Files, Renamed: q.Get("renamed")}
	if name := q.Get("rename"); slices.Contains(v.Files, name) {
		v.Rename, v.NewName = name, name
	}
	render(w, http.StatusOK, "files", v)
}

func (s *Site) rename(w http.ResponseWriter, r *http.Request) {
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	from, name := form.Get("from"), strings.TrimSpace(form.Get("name"))
	code, msg := http.StatusOK, ""
	s.update(func(st *State) {
		i := slices.Index(st.Files, from)
		switch {
		case i < 0:
			code, msg = http.StatusNotFound, fmt.Sprintf("There is no file %q.", from)
		case name == "":
			code, msg = http.StatusBadRequest, "Enter a name."
		case strings.ContainsAny(name, `/\`) || name == "." || name == "..":
			code, msg = http.StatusBadRequest, "A name cannot contain / or \\."
		case len(name) > 200:
			code, msg = http.StatusBadRequest, "The name is too long."
		case name != from && slices.Contains(st.Files, name):
			code, msg = http.StatusConflict, fmt.Sprintf("A file named %q already exists.", name)
		default:
			st.Files[i] = name
		}
	})
	if msg != "" {
		if wantsJSON(r) {
			writeJSON(w, code, map[string]string{"error": msg})
			return
		}
		st := s.State()
		rename := from
		if !slices.Contains(st.Files, from) {
			rename = ""
		}
		render(w, code, "files", filesView{
			frame: frame{Title: "Files", Page: "files"}, Files: st.Files,
			Rename: rename, NewName: name, Error: msg,
		})
		return
	}
	done(w, r, "/files?renamed="+url.QueryEscape(name), map[string]any{"from": from, "name": name})
}

// Sheet.

type sheetView struct {
	frame
	Orders []order
	Total  string
	Saved  bool
}

func (s *Site) sheet(w http.ResponseWriter, r *http.Request) {
	render(w, http.StatusOK, "sheet", sheetView{
		frame:  frame{Title: "Sheet", Page: "sheet"},
		Orders: orders,
		Total:  s.State().Total,
		Saved:  r.URL.Query().Has("saved"),
	})
}

func (s *Site) saveSheet(w http.ResponseWriter, r *http.Request) {
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	if !form.Has("total") {
		fail(w, r, http.StatusBadRequest, "the form has no field total")
		return
	}
	var applied bool
	s.update(func(st *State) {
		if applied = s.fresh("total", rev(form)); applied {
			st.Total = strings.TrimSpace(form.Get("total"))
		}
	})
	done(w, r, "/sheet?saved=1", map[string]any{"applied": applied})
}
