package site

import (
	"fmt"
	"strconv"
	"testing"
)

// TestMailPages follows the inbox's "Older" links from its first page to
// its last: every message shows exactly once, newest first, a page at a
// time; the first page is messages, which the other examples use; "Newer"
// leads back; an open message keeps the inbox on its page; a page that
// does not exist is not found.
func TestMailPages(t *testing.T) {
	_, srv := newServer(t)
	var seen []message
	path, pages := "/mail", 0
	for path != "" {
		pages++
		if pages > 10 {
			t.Fatal("the Older links never end")
		}
		doc := page(t, srv, path, 200)
		items := doc.Named("ul", "Inbox").Tags("li")
		if len(items) == 0 || len(items) > inboxPageSize {
			t.Fatalf("%s: %d messages, want 1 to %d", path, len(items), inboxPageSize)
		}
		for _, li := range items {
			seen = append(seen, *messageByID(idOf(t, li.Tags("a")[0].Attr("href"))))
		}
		nav := doc.Named("nav", "Inbox pages")
		if nav == nil {
			t.Fatalf("%s: no navigation named Inbox pages", path)
		}
		wantEqual(t, path+" position", nav.First(func(n *node) bool { return n.Attr("class") == "position" }).Text(), fmt.Sprintf("Messages %d–%d of %d", len(seen)-len(items)+1, len(seen), len(inbox)))
		links := map[string]string{}
		for _, a := range nav.Tags("a") {
			links[a.Text()] = a.Attr("href")
		}
		if pages == 1 {
			wantEqual(t, "link Newer on the first page", links["Newer"], "")
		} else {
			wantEqual(t, "link Newer on page "+strconv.Itoa(pages), links["Newer"], "/mail?page="+strconv.Itoa(pages-1))
		}
		path = links["Older"]
	}
	wantEqual(t, "pages", pages, (len(inbox)+inboxPageSize-1)/inboxPageSize)
	if pages < 3 {
		t.Errorf("%d pages: a workflow that looks for a message needs several", pages)
	}
	wantEqual(t, "messages seen", len(seen), len(inbox))
	for i := range seen {
		wantEqual(t, "subject "+strconv.Itoa(i), seen[i].Subject, inbox[i].Subject)
		if i > 0 && seen[i].Date > seen[i-1].Date {
			t.Errorf("the inbox is not newest first at %d", i)
		}
	}
	for i := range messages {
		wantEqual(t, "first page "+strconv.Itoa(i), seen[i].ID, messages[i].ID)
	}

	last := inbox[len(inbox)-1]
	doc := page(t, srv, "/mail/"+strconv.Itoa(last.ID), 200)
	current := doc.Named("ul", "Inbox").First(func(n *node) bool { return n.Tag == "a" && n.Attr("aria-current") == "page" })
	if current == nil || current.Text() != last.Subject {
		t.Errorf("/mail/%d does not show its message in the inbox as the current one", last.ID)
	}
	for _, p := range []string{"/mail?page=0", "/mail?page=" + strconv.Itoa(pages+1), "/mail?page=two"} {
		page(t, srv, p, 404)
	}
}

// idOf is the message id of an inbox link, /mail/<id>.
func idOf(t *testing.T, href string) int {
	t.Helper()
	var id int
	if _, err := fmt.Sscanf(href, "/mail/%d", &id); err != nil || messageByID(id) == nil {
		t.Fatalf("inbox link %q names no message", href)
	}
	return id
}
