package site

import (
	"encoding/csv"
	"net/http"
)

// ordersCSV serves the sheet's Orders table as a CSV file to download
// (the link "Download orders (CSV)" on /sheet): what a workflow's
// download_link fetches, and a test compares with the table on the page.
func (s *Site) ordersCSV(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="orders.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"Name", "Email", "Phone", "Country", "Amount"})
	for _, o := range orders {
		_ = cw.Write([]string{o.Name, o.Email, o.Phone, o.Country, o.Amount})
	}
	cw.Flush()
}
