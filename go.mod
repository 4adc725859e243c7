module github.com/ibreport/ibreport

go 1.26.8

require github.com/gocarina/gocsv v0.0.0-20240520201108-78e41c74b4b1

require gonum.org/v1/gonum v0.17.0
