module example.com/badimport

go 1.26
