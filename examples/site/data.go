package site

import (
	"slices"
	"strings"
)

// The fixed content of the pages. The reading list and the file list are
// the initial state (they change); messages, orders and countries never do.

// initialPapers are the reading list's rows; each title is the title of a
// wiki article whose Abstract section holds the paper's abstract.
var initialPapers = []Paper{
	{Title: "Attention Is All You Need", Authors: "Vaswani, Shazeer, Parmar, Uszkoreit, Jones, Gomez, Kaiser, Polosukhin"},
	{Title: "A Mathematical Theory of Communication", Authors: "Claude E. Shannon"},
	{Title: "Computing Machinery and Intelligence", Authors: "Alan M. Turing"},
	{Title: "MapReduce: Simplified Data Processing on Large Clusters", Authors: "Jeffrey Dean, Sanjay Ghemawat"},
	{Title: "The PageRank Citation Ranking: Bringing Order to the Web", Authors: "Lawrence Page, Sergey Brin, Rajeev Motwani, Terry Winograd"},
}

var initialFiles = []string{"report.txt", "notes.txt", "todo.txt", "budget.csv"}

// message is one message of the mail page's inbox.
type message struct {
	ID      int
	From    string
	Address string
	Date    string // RFC 3339 date and time, local
	Shown   string // the date as the inbox shows it
	Subject string
	Body    []string // paragraphs
}

// messages is the inbox's first page, newest first.
var messages = []message{
	{
		ID: 4, From: "Grace Hopper", Address: "grace@example.org",
		Date: "2025-06-12T09:41", Shown: "12 Jun 2025, 09:41",
		Subject: "Can we move Thursday's design review to 3 pm?",
		Body: []string{
			"Hi,",
			"something came up on Thursday morning and I will not make it back in time for the design review at 10. Could we move it to 3 pm? The small meeting room is free then, and I can bring the printed mock-ups.",
			"Thanks, Grace",
		},
	},
	{
		ID: 3, From: "Alan Turing", Address: "alan@example.ac.uk",
		Date: "2025-06-11T16:05", Shown: "11 Jun 2025, 16:05",
		Subject: "Slides for Monday's reading group",
		Body: []string{
			"Hello,",
			"I am putting together the slides for Monday's reading group on the imitation game. Do you have the figures from last term's session? Anything in a format I can paste into a presentation would be fine.",
			"Best, Alan",
		},
	},
	{
		ID: 2, From: "Wangari Maathai", Address: "wangari@greenbelt.example",
		Date: "2025-06-10T11:20", Shown: "10 Jun 2025, 11:20",
		Subject: "Tree planting on Saturday - who is coming?",
		Body: []string{
			"Dear all,",
			"we are planting two hundred seedlings along the river on Saturday from 8 am. Gloves and tools are provided; please bring water and a hat. Let me know by Thursday if you can come so that we can plan transport.",
			"Wangari",
		},
	},
	{
		ID: 1, From: "Claude Shannon", Address: "accounts@juggling.example",
		Date: "2025-06-09T08:02", Shown: "9 Jun 2025, 08:02",
		Subject: "Invoice 2025-117 for the May order",
		Body: []string{
			"Good morning,",
			"please find below the details of invoice 2025-117 for the unicycles and juggling balls delivered in May: 1,234.50 in total, payable within 30 days.",
			"Kind regards, Claude Shannon, Accounts",
		},
	},
}

// olderMessages follow messages in the inbox, newest first: the inbox
// shows inboxPageSize messages a page, so they are on its later pages,
// reached through its "Older" link. They are what a workflow that pages
// through the inbox (examples/demo_find_mail.cog) looks for.
var olderMessages = []message{
	older(5, "Ada Lovelace", "ada@engine.example", "2025-06-06T14:30", "6 Jun 2025, 14:30", "Notes on the analytical engine"),
	older(6, "Nikola Tesla", "nikola@coils.example", "2025-06-04T10:12", "4 Jun 2025, 10:12", "Lab booking for the coil experiment"),
	older(7, "Marie Curie", "marie@radium.example", "2025-06-02T17:45", "2 Jun 2025, 17:45", "Safety training next week"),
	older(8, "Rosalind Franklin", "rosalind@kings.example", "2025-05-30T09:05", "30 May 2025, 09:05", "Photo 51 prints are ready"),
	older(9, "Katherine Johnson", "katherine@orbits.example", "2025-05-27T13:22", "27 May 2025, 13:22", "Trajectory numbers, second check"),
	older(10, "Tim Berners-Lee", "tim@web.example", "2025-05-23T11:48", "23 May 2025, 11:48", "Proposal: a shared hypertext system"),
	older(11, "Hedy Lamarr", "hedy@hops.example", "2025-05-20T08:37", "20 May 2025, 08:37", "Frequency hopping patent draft"),
	older(12, "Edsger Dijkstra", "edsger@paths.example", "2025-05-16T15:10", "16 May 2025, 15:10", "Shortest route to the conference venue"),
}

// older is a message of the inbox's later pages, whose body is one line.
func older(id int, from, address, date, shown, subject string) message {
	return message{ID: id, From: from, Address: address, Date: date, Shown: shown, Subject: subject,
		Body: []string{"Hello,", "a short note about this: " + strings.ToLower(subject) + ".", "Best, " + strings.Fields(from)[0]}}
}

// inboxPageSize is how many messages a page of the inbox shows: the
// first page is messages, the newest ones.
const inboxPageSize = 4

// inbox is every message, newest first.
var inbox = append(slices.Clip(messages), olderMessages...)

func messageByID(id int) *message {
	for i := range inbox {
		if inbox[i].ID == id {
			return &inbox[i]
		}
	}
	return nil
}

// order is one row of the sheet's Orders table. The values are a little
// untidy on purpose (names in lower case, mixed-case e-mail addresses,
// phone numbers with punctuation), so that workflows copying them into the
// order form have something to clean up.
type order struct {
	Name, Email, Phone, Country, Amount string
}

var orders = []order{
	{"ada lovelace", "Ada.Lovelace@Example.COM", "+44 (20) 7946-0000", "United Kingdom", "1,234.50"},
	{"grace hopper", "GRACE.Hopper@Navy.example", "+1 555-0100", "United States", "980.00"},
	{"alan turing", "Alan.Turing@Example.ac.uk", "+44 161 496 0123", "United Kingdom", "2,310.75"},
	{"wangari maathai", "W.Maathai@GreenBelt.example", "+254 (20) 123-4567", "Kenya", "456.20"},
	{"tenzing norgay", "Tenzing@Summit.example", "+977 1-444-5555", "Nepal", "3,005.00"},
}

// countries are the options of the order form's Country box; every country
// of the Orders table is one of them.
var countries = []string{
	"Argentina", "Australia", "Brazil", "Canada", "France", "Germany", "India",
	"Japan", "Kenya", "Nepal", "Tanzania", "United Kingdom", "United States",
}
