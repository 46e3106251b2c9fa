/** Nominatim and Photon answers for the geocoder tests (engine level and over HTTP). */

// Shaped like the services' documented answers (Nominatim /search?format=jsonv2&addressdetails=1,
// Photon /api): facts of a real address, not copied text.
export const NOMINATIM = [
  {
    place_id: 134140761,
    licence: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",
    osm_type: "way",
    osm_id: 46405394,
    lat: "53.5410237",
    lon: "9.9841514",
    category: "building",
    type: "yes",
    place_rank: 30,
    importance: 0.00000999999999995449,
    addresstype: "building",
    name: "",
    display_name:
      "Elbphilharmonie, 1, Platz der Deutschen Einheit, HafenCity, Hamburg-Mitte, Hamburg, 20457, Deutschland",
    address: {
      house_number: "1",
      road: "Platz der Deutschen Einheit",
      suburb: "HafenCity",
      city: "Hamburg",
      postcode: "20457",
      country: "Deutschland",
      country_code: "de",
    },
    boundingbox: ["53.5405", "53.5416", "9.9832", "9.9851"],
  },
];

export const PHOTON = {
  type: "FeatureCollection",
  features: [
    {
      type: "Feature",
      geometry: { type: "Point", coordinates: [-0.1276474, 51.5073219] },
      properties: {
        osm_type: "N",
        osm_id: 107775,
        osm_key: "place",
        osm_value: "city",
        type: "city",
        name: "London",
        country: "United Kingdom",
        countrycode: "GB",
        state: "England",
        extent: [-0.5103751, 51.6918741, 0.3340155, 51.2867602],
      },
    },
    {
      type: "Feature",
      geometry: { type: "Point", coordinates: [-0.1419, 51.5014] },
      properties: {
        osm_type: "W",
        osm_id: 4256259,
        osm_key: "building",
        osm_value: "palace",
        type: "house",
        housenumber: "1",
        street: "The Mall",
        postcode: "SW1A 1AA",
        city: "London",
        country: "United Kingdom",
        countrycode: "GB",
      },
    },
  ],
};
