package site

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Mail: the inbox (paged), an open message, its reply form and the sign-in.
// Kept apart from pages.go because the mail examples grow it most.

type mailView struct {
	frame
	Messages  []message
	User      string
	SignInErr string
	Message   *message // the open message
	ReplyOpen bool
	Reply     string // the reply's text, after a failed send
	ReplyErr  string
	Sent      bool
	// The inbox's page: which messages it shows ("Messages 5–8 of 12")
	// and the page numbers of its "Newer" and "Older" links (0: none).
	Position     string
	Newer, Older int
}

func (s *Site) mailView(r *http.Request) (mailView, bool) {
	v := mailView{frame: frame{Title: "Mail", Page: "mail"}, User: s.State().MailUser}
	page := 1
	if idText := r.PathValue("id"); idText != "" {
		id, err := strconv.Atoi(idText)
		if err != nil {
			return v, false
		}
		if v.Message = messageByID(id); v.Message == nil {
			return v, false
		}
		v.Title = v.Message.Subject + " – Mail"
		// An open message keeps the inbox on the page that lists it.
		page = slices.IndexFunc(inbox, func(m message) bool { return m.ID == id })/inboxPageSize + 1
	}
	if p := r.URL.Query().Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, false
		}
		page = n
	}
	return v, v.inboxPage(page)
}

// inboxPage puts the inbox's page n (from 1) and its links in the view; a
// page past the last is false, as a missing message is.
func (v *mailView) inboxPage(n int) bool {
	last := (len(inbox) + inboxPageSize - 1) / inboxPageSize
	if n < 1 || n > last {
		return false
	}
	from, to := (n-1)*inboxPageSize, min(n*inboxPageSize, len(inbox))
	v.Messages = inbox[from:to]
	v.Position = fmt.Sprintf("Messages %d–%d of %d", from+1, to, len(inbox))
	if n > 1 {
		v.Newer = n - 1
	}
	if n < last {
		v.Older = n + 1
	}
	return true
}

func (s *Site) mail(w http.ResponseWriter, r *http.Request) {
	v, ok := s.mailView(r)
	if !ok {
		render(w, http.StatusNotFound, "notfound", notFoundView{frame: frame{Title: "Not found – Mail", Page: "mail"}, Path: r.URL.Path})
		return
	}
	q := r.URL.Query()
	v.ReplyOpen, v.Sent = q.Has("reply"), q.Has("sent")
	render(w, http.StatusOK, "mail", v)
}

func (s *Site) reply(w http.ResponseWriter, r *http.Request) {
	v, ok := s.mailView(r)
	if !ok {
		fail(w, r, http.StatusNotFound, "no such message")
		return
	}
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	body := strings.TrimSpace(text(form.Get("body")))
	if body == "" {
		if wantsJSON(r) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": "Write a reply first."})
			return
		}
		v.ReplyOpen, v.ReplyErr = true, "Write a reply first."
		render(w, http.StatusUnprocessableEntity, "mail", v)
		return
	}
	m := v.Message
	s.update(func(st *State) {
		st.Replies = append(st.Replies, Reply{
			MessageID: m.ID,
			To:        m.Address,
			Subject:   "Re: " + m.Subject,
			Body:      body,
			PINGiven:  form.Get("pin") != "",
		})
	})
	done(w, r, fmt.Sprintf("/mail/%d?sent=1", m.ID), nil)
}

func (s *Site) signIn(w http.ResponseWriter, r *http.Request) {
	form, ok := parseForm(w, r)
	if !ok {
		return
	}
	user := strings.TrimSpace(form.Get("user"))
	if user == "" || form.Get("password") == "" {
		msg := "Enter a user name and a password."
		if wantsJSON(r) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": msg})
			return
		}
		v, _ := s.mailView(r)
		v.SignInErr = msg
		render(w, http.StatusUnprocessableEntity, "mail", v)
		return
	}
	s.update(func(st *State) { st.MailUser = user })
	done(w, r, "/mail", nil)
}

func (s *Site) signOut(w http.ResponseWriter, r *http.Request) {
	s.update(func(st *State) { st.MailUser = "" })
	done(w, r, "/mail", nil)
}
