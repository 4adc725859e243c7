module github.com/ibreport/ibreport

go 1.26.8
