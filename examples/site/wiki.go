package site

import (
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"unicode"
)

// article is one wiki article, read from articles/*.txt: the first line is
// the title, then paragraphs separated by blank lines; a line "## Heading"
// starts a section. The paragraphs before the first heading are the
// introduction; the first paragraph of a section headed "Abstract" is the
// paper's abstract.
type article struct {
	Title    string
	Sections []section // the first has no heading: the introduction

	norm       string   // title, normalized for search
	titleWords []string // stems of the title's words
	words      []string // stems of every word of the title and text
}

type section struct {
	Heading    string
	ID         string // the heading's id ("abstract-heading"), for aria-labelledby
	Abstract   bool   // the section holds the abstract
	Paragraphs []string
}

// Intro is the article's first paragraph.
func (a *article) Intro() string { return a.Sections[0].Paragraphs[0] }

// Abstract is the paragraph of the Abstract section, "" for articles that
// are not papers.
func (a *article) Abstract() string {
	for _, s := range a.Sections {
		if s.Abstract {
			return s.Paragraphs[0]
		}
	}
	return ""
}

// Path is the article's address: /wiki/ and the title with underscores.
func (a *article) Path() string { return articlePath(a.Title) }

func articlePath(title string) string {
	return "/wiki/" + url.PathEscape(strings.ReplaceAll(title, " ", "_"))
}

func (a *article) text() string {
	var b strings.Builder
	b.WriteString(a.Title)
	for _, s := range a.Sections {
		b.WriteString("\n" + s.Heading)
		for _, p := range s.Paragraphs {
			b.WriteString("\n" + p)
		}
	}
	return b.String()
}

// articles are the wiki's articles, sorted by title.
var articles = mustLoadArticles()

func mustLoadArticles() []*article {
	paths, err := fs.Glob(files, "articles/*.txt")
	if err != nil {
		panic(err)
	}
	var as []*article
	for _, p := range paths {
		b, err := files.ReadFile(p)
		if err != nil {
			panic(err)
		}
		a, err := parseArticle(string(b))
		if err != nil {
			panic(fmt.Sprintf("%s: %v", p, err))
		}
		as = append(as, a)
	}
	sort.Slice(as, func(i, j int) bool { return as[i].Title < as[j].Title })
	return as
}

func parseArticle(src string) (*article, error) {
	blocks := strings.Split(strings.ReplaceAll(strings.TrimSpace(src), "\r\n", "\n"), "\n\n")
	title := strings.TrimSpace(blocks[0])
	if title == "" || strings.Contains(title, "\n") {
		return nil, fmt.Errorf("the first line must be the title, followed by a blank line")
	}
	a := &article{Title: title, Sections: []section{{}}}
	for _, b := range blocks[1:] {
		b = strings.TrimSpace(b)
		if h, ok := strings.CutPrefix(b, "## "); ok {
			a.Sections = append(a.Sections, section{
				Heading:  h,
				ID:       slug(h) + "-heading",
				Abstract: h == "Abstract",
			})
			continue
		}
		if b == "" {
			continue
		}
		s := &a.Sections[len(a.Sections)-1]
		s.Paragraphs = append(s.Paragraphs, strings.Join(strings.Fields(b), " "))
	}
	for _, s := range a.Sections {
		if len(s.Paragraphs) == 0 {
			return nil, fmt.Errorf("section %q has no paragraph", s.Heading)
		}
	}
	a.norm = normalize(a.Title)
	a.titleWords = stems(a.Title)
	a.words = stems(a.text())
	return a, nil
}

func slug(s string) string {
	return strings.Join(strings.Fields(normalize(s)), "-")
}

// findArticle finds an article by the title in its address: underscores
// stand for spaces, and case does not matter.
func findArticle(name string) *article {
	name = strings.TrimSpace(strings.ReplaceAll(name, "_", " "))
	for _, a := range articles {
		if strings.EqualFold(a.Title, name) {
			return a
		}
	}
	return nil
}

// result is one search result.
type result struct {
	Article *article
	Score   int
	Snippet string
}

// stopWords are left out of queries unless a query has nothing else.
var stopWords = map[string]bool{
	"a": true, "all": true, "an": true, "and": true, "are": true, "as": true,
	"at": true, "be": true, "by": true, "for": true, "from": true, "in": true,
	"is": true, "it": true, "of": true, "on": true, "or": true, "the": true,
	"to": true, "was": true, "with": true, "you": true,
}

// search ranks the articles for a query, most relevant first: the article
// whose title is the query, then titles holding the whole query, then
// titles holding its words, then articles that mention the words most
// often. Articles that contain none of the query's words are left out.
func search(query string) []result {
	q := normalize(query)
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil
	}
	var rs []result
	for _, a := range articles {
		score, hits := 0, 0
		for _, t := range terms {
			inTitle := count(a.titleWords, t) > 0
			n := count(a.words, t)
			if n > 0 {
				hits++
			}
			if inTitle {
				score += 20
			}
			score += min(n, 10)
		}
		if hits == 0 {
			continue
		}
		switch {
		case a.norm == q:
			score += 100
		case strings.Contains(" "+a.norm+" ", " "+q+" "):
			score += 40
		}
		if len(terms) > 1 && hits == len(terms) {
			score += 5 // every word of the query occurs
		}
		rs = append(rs, result{Article: a, Score: score, Snippet: snippet(a, terms)})
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Score != rs[j].Score {
			return rs[i].Score > rs[j].Score
		}
		return rs[i].Article.Title < rs[j].Article.Title
	})
	return rs
}

func queryTerms(query string) []string {
	all := stems(query)
	var terms []string
	seen := map[string]bool{}
	for _, w := range all {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			terms = append(terms, w)
		}
	}
	if len(terms) == 0 {
		for _, w := range all {
			if !seen[w] {
				seen[w] = true
				terms = append(terms, w)
			}
		}
	}
	return terms
}

func count(words []string, w string) int {
	n := 0
	for _, x := range words {
		if x == w {
			n++
		}
	}
	return n
}

// normalize lowers s and turns every run of characters other than letters
// and digits into one space.
func normalize(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// stems splits s into normalized words with a plural "s" removed, so that
// "glaciers" finds "glacier".
func stems(s string) []string {
	ws := strings.Fields(normalize(s))
	for i, w := range ws {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			ws[i] = w[:len(w)-1]
		}
	}
	return ws
}

// snippet is the first sentence of the article that holds one of the
// terms, or its first sentence, cut to a line or two.
func snippet(a *article, terms []string) string {
	var first string
	for _, s := range a.Sections {
		for _, p := range s.Paragraphs {
			for _, sent := range sentences(p) {
				if first == "" {
					first = sent
				}
				ws := stems(sent)
				for _, t := range terms {
					if count(ws, t) > 0 {
						return shorten(sent, 200)
					}
				}
			}
		}
	}
	return shorten(first, 200)
}

func sentences(p string) []string {
	var out []string
	for {
		i := strings.Index(p, ". ")
		if i < 0 {
			return append(out, p)
		}
		out = append(out, p[:i+1])
		p = p[i+2:]
	}
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndex(cut, " "); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:") + "…"
}
