module example.com/vetfacts

go 1.26
