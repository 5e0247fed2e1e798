"""Line-tagged formats (RIS, EndNote tagged, MEDLINE, Web of Science) and the record syntax they share."""
