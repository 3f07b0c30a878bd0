//! The offline directory on the real Helsinki extract kept in `core/data/osm/` (© OpenStreetMap contributors,
//! ODbL): import, geocoding, and radius searches that stay inside the radius, nearest first.

use std::collections::HashSet;
use std::path::Path;

use outreach_core::discovery::directory::{
    categories_for, counts, distance_km, geocode, import_osm, search,
};
use outreach_core::testing::each_backend;

const EXTRACT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/osm/Helsinki.osm.pbf");

#[tokio::test]
async fn import_geocode_and_search_the_helsinki_extract() {
    each_backend(|test_db| async move {
        let db = &test_db.db;
        let backend = db.backend();
        let report = import_osm(db, Path::new(EXTRACT), 1)
            .await
            .expect("the extract imports");
        assert!(
            (1000..3000).contains(&report.places),
            "{backend}: {report:?}"
        );
        assert!(report.localities >= 3, "{backend}: {report:?}");
        let again = import_osm(db, Path::new(EXTRACT), 2).await.unwrap();
        assert_eq!(report, again);
        assert_eq!(
            counts(db).await.unwrap(),
            (report.places as i64, report.localities as i64),
            "{backend}: re-import refreshes, never duplicates"
        );

        let centre = geocode(db, "Helsinki")
            .await
            .unwrap()
            .expect("Helsinki is in its own extract");
        assert_eq!(centre.name, "Helsinki");
        assert!((centre.latitude - 60.17).abs() < 0.05 && (centre.longitude - 24.94).abs() < 0.05);
        assert_eq!(
            geocode(db, " helsinki, Finland ")
                .await
                .unwrap()
                .map(|place| place.name),
            Some("Helsinki".into())
        );
        assert_eq!(geocode(db, "Atlantis").await.unwrap(), None);

        let origin = (centre.latitude, centre.longitude);
        let cafes = search(db, origin, 0.5, "cafe", 100, &HashSet::new())
            .await
            .unwrap();
        assert!(cafes.len() >= 5, "{backend}: {} cafés", cafes.len());
        let wanted = categories_for("cafe");
        for found in &cafes {
            assert!(
                found.distance_km <= 0.5,
                "{}: {} km",
                found.place.name,
                found.distance_km
            );
            let recomputed = distance_km(origin, (found.place.latitude, found.place.longitude));
            assert!((recomputed - found.distance_km).abs() < 1e-9);
            assert!(
                wanted.contains(&found.place.category)
                    || found.place.name.to_lowercase().contains("cafe"),
                "{:?}",
                found.place
            );
        }
        assert!(
            cafes
                .windows(2)
                .all(|pair| pair[0].distance_km <= pair[1].distance_km),
            "nearest first"
        );

        // A larger radius finds more, and excluded places (found by an earlier chunk) are skipped.
        let wider = search(db, origin, 2.0, "cafe", 500, &HashSet::new())
            .await
            .unwrap();
        assert!(wider.len() > cafes.len());
        let first_ids: HashSet<String> = cafes
            .iter()
            .map(|found| found.place.provider_place_id())
            .collect();
        let next = search(db, origin, 2.0, "cafe", 10, &first_ids)
            .await
            .unwrap();
        assert_eq!(next.len(), 10);
        assert!(
            next.iter()
                .all(|found| !first_ids.contains(&found.place.provider_place_id()))
        );
        assert_eq!(
            search(db, origin, 2.0, "submarine dealer", 10, &HashSet::new())
                .await
                .unwrap(),
            vec![]
        );

        let with_website = wider
            .iter()
            .filter(|found| found.place.website.is_some())
            .count();
        assert!(with_website > 0, "{backend}: websites are imported");
        assert!(
            wider.iter().any(|found| found.place.address().is_some()),
            "{backend}: addresses are imported"
        );
        test_db.cleanup().await;
    })
    .await;
}
