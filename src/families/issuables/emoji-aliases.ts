// The aliases of GitLab's emoji, each to its character's name: GitLab's fixtures/emojis/aliases.json,
// which `rake tanuki_emoji:aliases` writes from TanukiEmoji (every alias of every character to the
// character's name), the same answer as AwardEmojis::BaseService#normalize_name
// (`TanukiEmoji.find_by_alpha_code(name)&.name || name`). Written compactly; `aliasTable` expands it.
//
// An entry is `alias>name`, followed by `/s` when the five skin tones of the alias
// (`alias_light_skin_tone` … `alias_dark_skin_tone`) are aliases of `name_tone1` … `name_tone5`,
// and `/t` when `alias_tone1` … `alias_tone5` are. An entry whose alias is its name, or that starts
// with `-`, stands for its tones only.
const ENTRIES = `
grinning_face>grinning grinning_face_with_big_eyes>smiley grinning_face_with_smiling_eyes>smile beaming_face_with_smiling_eyes>grin
grinning_squinting_face>laughing satisfied>laughing grinning_face_with_sweat>sweat_smile rolling_on_the_floor_laughing>rofl
face_with_tears_of_joy>joy slightly_smiling_face>slight_smile upside_down_face>upside_down winking_face>wink
smiling_face_with_smiling_eyes>blush smiling_face_with_halo>innocent smiling_face_with_heart_eyes>heart_eyes face_blowing_a_kiss>kissing_heart
kissing_face>kissing smiling_face>relaxed kissing_face_with_closed_eyes>kissing_closed_eyes kissing_face_with_smiling_eyes>kissing_smiling_eyes
face_savoring_food>yum face_with_tongue>stuck_out_tongue winking_face_with_tongue>stuck_out_tongue_winking_eye
squinting_face_with_tongue>stuck_out_tongue_closed_eyes money_mouth_face>money_mouth smiling_face_with_open_hands>hugging hugging_face>hugging
thinking_face>thinking zipper_mouth_face>zipper_mouth expressionless_face>expressionless face_without_mouth>no_mouth smirking_face>smirk
unamused_face>unamused face_with_rolling_eyes>rolling_eyes grimacing_face>grimacing liar>lying_face relieved_face>relieved pensive_face>pensive
sleepy_face>sleepy drool>drooling_face sleeping_face>sleeping face_with_medical_mask>mask face_with_thermometer>thermometer_face
face_with_head_bandage>head_bandage sick>nauseated_face sneeze>sneezing_face face_with_crossed_out_eyes>dizzy_face cowboy_hat_face>cowboy
face_with_cowboy_hat>cowboy smiling_face_with_sunglasses>sunglasses nerd_face>nerd confused_face>confused worried_face>worried
slightly_frowning_face>slight_frown frowning_face>frowning2 white_frowning_face>frowning2 face_with_open_mouth>open_mouth hushed_face>hushed
astonished_face>astonished flushed_face>flushed frowning_face_with_open_mouth>frowning anguished_face>anguished fearful_face>fearful
anxious_face_with_sweat>cold_sweat sad_but_relieved_face>disappointed_relieved crying_face>cry loudly_crying_face>sob
face_screaming_in_fear>scream confounded_face>confounded persevering_face>persevere disappointed_face>disappointed
downcast_face_with_sweat>sweat weary_face>weary face_with_steam_from_nose>triumph enraged_face>rage angry_face>angry
smiling_face_with_horns>smiling_imp angry_face_with_horns>imp skeleton>skull skull_and_crossbones>skull_crossbones pile_of_poo>poop
shit>poop hankey>poop poo>poop clown_face>clown ogre>japanese_ogre goblin>japanese_goblin alien_monster>space_invader robot_face>robot
grinning_cat>smiley_cat grinning_cat_with_smiling_eyes>smile_cat cat_with_tears_of_joy>joy_cat smiling_cat_with_heart_eyes>heart_eyes_cat
cat_with_wry_smile>smirk_cat weary_cat>scream_cat crying_cat>crying_cat_face see_no_evil_monkey>see_no_evil hear_no_evil_monkey>hear_no_evil
speak_no_evil_monkey>speak_no_evil heart_with_arrow>cupid heart_with_ribbon>gift_heart growing_heart>heartpulse beating_heart>heartbeat
heavy_heart_exclamation_mark_ornament>heart_exclamation red_heart>heart kiss_mark>kiss hundred_points>100 anger_symbol>anger collision>boom
sweat_droplets>sweat_drops dashing_away>dash left_speech_bubble>speech_left right_anger_bubble>anger_right
waving_hand>wave/s back_of_hand>raised_back_of_hand/t raised_back_of_hand>raised_back_of_hand/s
hand_with_fingers_splayed>hand_splayed/s raised_hand_with_fingers_splayed>hand_splayed/t raised_hand>raised_hand/s
vulcan_salute>vulcan/s raised_hand_with_part_between_middle_and_ring_fingers>vulcan/t ok_hand>ok_hand/s victory_hand>v/s
crossed_fingers>fingers_crossed/s hand_with_index_and_middle_finger_crossed>fingers_crossed -hand_with_index_and_middle_fingers_crossed>fingers_crossed/t
sign_of_the_horns>metal/s/t call_me_hand>call_me/s/t backhand_index_pointing_left>point_left/s backhand_index_pointing_right>point_right/s
backhand_index_pointing_up>point_up_2/s reversed_hand_with_middle_finger_extended>middle_finger/t middle_finger>middle_finger/s
backhand_index_pointing_down>point_down/s index_pointing_up>point_up/s thumbs_up>thumbsup/s +1>thumbsup/t thumbs_down>thumbsdown/s
-1>thumbsdown/t raised_fist>fist/s oncoming_fist>punch/s left_fist>left_facing_fist/t left_facing_fist>left_facing_fist/s
right_fist>right_facing_fist/t right_facing_fist>right_facing_fist/s clapping_hands>clap/s raising_hands>raised_hands/s
open_hands>open_hands/s shaking_hands>handshake/t handshake>handshake/s folded_hands>pray/s writing_hand>writing_hand/s
nail_polish>nail_care/s selfie>selfie/s flexed_biceps>muscle/s ear>ear/s nose>nose/s mouth>lips baby>baby/s boy>boy/s girl>girl/s
person_blond_hair>person_with_blond_hair person_light_skin_tone_blond_hair>person_with_blond_hair_tone1
person_medium_light_skin_tone_blond_hair>person_with_blond_hair_tone2 person_medium_skin_tone_blond_hair>person_with_blond_hair_tone3
person_medium_dark_skin_tone_blond_hair>person_with_blond_hair_tone4 person_dark_skin_tone_blond_hair>person_with_blond_hair_tone5
man>man/s woman>woman/s old_man>older_man/s old_woman>older_woman/s grandma>older_woman/t person_frowning>person_frowning/s
person_pouting>person_with_pouting_face/s person_gesturing_no>no_good/s person_gesturing_ok>ok_woman/s
person_tipping_hand>information_desk_person/s person_raising_hand>raising_hand/s person_bowing>bow/s person_facepalming>face_palm/s
facepalm>face_palm/t person_shrugging>shrug/s police_officer>cop/s detective>spy/s sleuth_or_spy>spy/t guard>guardsman/s
construction_worker>construction_worker/s prince>prince/s princess>princess/s person_wearing_turban>man_with_turban/s
person_with_skullcap>man_with_gua_pi_mao/s person_in_tuxedo>man_in_tuxedo/s -tuxedo>man_in_tuxedo/t person_with_veil>bride_with_veil/s
expecting_woman>pregnant_woman/t pregnant_woman>pregnant_woman/s baby_angel>angel/s santa_claus>santa/s mother_christmas>mrs_claus/t
mrs_claus>mrs_claus/s person_getting_massage>massage/s person_getting_haircut>haircut/s person_walking>walking/s person_running>runner/s
woman_dancing>dancer/s male_dancer>man_dancing/t man_dancing>man_dancing/s person_in_suit_levitating>levitate
man_in_business_suit_levitating>levitate people_with_bunny_ears>dancers person_fencing>fencer fencing>fencer horse_racing>horse_racing/s
person_golfing>golfer person_surfing>surfer/s person_rowing_boat>rowboat/s person_swimming>swimmer/s
person_bouncing_ball>basketball_player/s person_with_ball>basketball_player/t person_lifting_weights>lifter/s weight_lifter>lifter/t
person_biking>bicyclist/s person_mountain_biking>mountain_bicyclist/s person_cartwheeling>cartwheel/s person_doing_cartwheel>cartwheel/t
people_wrestling>wrestlers wrestling>wrestlers person_playing_water_polo>water_polo/s person_playing_handball>handball/s
person_juggling>juggling/s juggler>juggling/t person_taking_bath>bath/s person_in_bed>sleeping_accommodation
women_holding_hands>two_women_holding_hands woman_and_man_holding_hands>couple men_holding_hands>two_men_holding_hands kiss_man_man>kiss_mm
couplekiss_mm>kiss_mm kiss_woman_woman>kiss_ww couplekiss_ww>kiss_ww couple_with_heart_man_man>couple_mm couple_with_heart_mm>couple_mm
couple_with_heart_woman_woman>couple_ww couple_with_heart_ww>couple_ww family_man_woman_girl>family_mwg family_man_woman_girl_boy>family_mwgb
family_man_woman_boy_boy>family_mwbb family_man_woman_girl_girl>family_mwgg family_man_man_boy>family_mmb family_man_man_girl>family_mmg
family_man_man_girl_boy>family_mmgb family_man_man_boy_boy>family_mmbb family_man_man_girl_girl>family_mmgg family_woman_woman_boy>family_wwb
family_woman_woman_girl>family_wwg family_woman_woman_girl_boy>family_wwgb family_woman_woman_boy_boy>family_wwbb
family_woman_woman_girl_girl>family_wwgg speaking_head_in_silhouette>speaking_head light_skin_tone>tone1 medium_light_skin_tone>tone2
medium_skin_tone>tone3 medium_dark_skin_tone>tone4 dark_skin_tone>tone5 dog_face>dog fox_face>fox cat_face>cat lion>lion_face
tiger_face>tiger horse_face>horse unicorn_face>unicorn cow_face>cow pig_face>pig ewe>sheep two_hump_camel>camel rhinoceros>rhino
mouse_face>mouse rabbit_face>rabbit panda>panda_face paw_prints>feet front_facing_baby_chick>hatched_chick dove_of_peace>dove
spouting_whale>whale spiral_shell>shell honeybee>bee lady_beetle>beetle wilted_flower>wilted_rose sheaf_of_rice>ear_of_rice
leaf_fluttering_in_wind>leaves red_apple>apple kiwi_fruit>kiwi kiwifruit>kiwi ear_of_corn>corn shelled_peanut>peanuts
baguette_bread>french_bread cheese_wedge>cheese french_fries>fries hot_dog>hotdog stuffed_pita>stuffed_flatbread paella>shallow_pan_of_food
pot_of_food>stew green_salad>salad bento_box>bento cooked_rice>rice curry_rice>curry steaming_bowl>ramen roasted_sweet_potato>sweet_potato
fish_cake_with_swirl>fish_cake soft_ice_cream>icecream birthday_cake>birthday shortcake>cake glass_of_milk>milk hot_beverage>coffee
teacup_without_handle>tea bottle_with_popping_cork>champagne cocktail_glass>cocktail beer_mug>beer clinking_beer_mugs>beers
clinking_glasses>champagne_glass clinking_glass>champagne_glass whisky>tumbler_glass fork_and_knife_with_plate>fork_knife_plate
kitchen_knife>knife globe_showing_europe_africa>earth_africa globe_showing_americas>earth_americas globe_showing_asia_australia>earth_asia
world_map>map map_of_japan>japan snow_capped_mountain>mountain_snow beach_with_umbrella>beach desert_island>island national_park>park
building_construction>construction_site houses>homes house_buildings>homes derelict_house>house_abandoned
derelict_house_building>house_abandoned office_building>office japanese_post_office>post_office castle>european_castle
cityscape_at_dusk>city_dusk sunset>city_sunset city_sunrise>city_sunset hot_springs>hotsprings barber_pole>barber
locomotive>steam_locomotive high_speed_train>bullettrain_side bullet_train>bullettrain_front tram_car>train automobile>red_car
sport_utility_vehicle>blue_car delivery_truck>truck racing_car>race_car racing_motorcycle>motorcycle motorbike>motor_scooter bicycle>bike
kick_scooter>scooter bus_stop>busstop railroad_track>railway_track oil_drum>oil fuel_pump>fuelpump police_car_light>rotating_light
horizontal_traffic_light>traffic_light stop_sign>octagonal_sign kayak>canoe passenger_ship>cruise_ship motor_boat>motorboat
small_airplane>airplane_small airplane_arrival>airplane_arriving bellhop_bell>bellhop hourglass_done>hourglass
hourglass_not_done>hourglass_flowing_sand timer_clock>timer mantelpiece_clock>clock mantlepiece_clock>clock
twelve_o_clock>clock12 twelve_thirty>clock1230 one_o_clock>clock1 one_thirty>clock130 two_o_clock>clock2 two_thirty>clock230
three_o_clock>clock3 three_thirty>clock330 four_o_clock>clock4 four_thirty>clock430 five_o_clock>clock5 five_thirty>clock530
six_o_clock>clock6 six_thirty>clock630 seven_o_clock>clock7 seven_thirty>clock730 eight_o_clock>clock8 eight_thirty>clock830
nine_o_clock>clock9 nine_thirty>clock930 ten_o_clock>clock10 ten_thirty>clock1030 eleven_o_clock>clock11 eleven_thirty>clock1130
new_moon_face>new_moon_with_face first_quarter_moon_face>first_quarter_moon_with_face last_quarter_moon_face>last_quarter_moon_with_face
sun>sunny full_moon_face>full_moon_with_face glowing_star>star2 shooting_star>stars sun_behind_cloud>partly_sunny
cloud_with_lightning_and_rain>thunder_cloud_rain thunder_cloud_and_rain>thunder_cloud_rain sun_behind_small_cloud>white_sun_small_cloud
white_sun_with_small_cloud>white_sun_small_cloud sun_behind_large_cloud>white_sun_cloud white_sun_behind_cloud>white_sun_cloud
sun_behind_rain_cloud>white_sun_rain_cloud white_sun_behind_cloud_with_rain>white_sun_rain_cloud cloud_with_rain>cloud_rain
cloud_with_snow>cloud_snow cloud_with_lightning>cloud_lightning tornado>cloud_tornado cloud_with_tornado>cloud_tornado
wind_face>wind_blowing_face umbrella_with_rain_drops>umbrella umbrella_on_ground>beach_umbrella high_voltage>zap
snowman_without_snow>snowman flame>fire water_wave>ocean party_popper>tada pine_decoration>bamboo japanese_dolls>dolls carp_streamer>flags
moon_viewing_ceremony>rice_scene wrapped_gift>gift admission_tickets>tickets sports_medal>medal 1st_place_medal>first_place
first_place_medal>first_place 2nd_place_medal>second_place second_place_medal>second_place 3rd_place_medal>third_place
third_place_medal>third_place soccer_ball>soccer american_football>football cricket_game>cricket cricket_bat_ball>cricket ice_hockey>hockey
table_tennis>ping_pong boxing_gloves>boxing_glove karate_uniform>martial_arts_uniform goal_net>goal flag_in_hole>golf
fishing_pole>fishing_pole_and_fish running_shirt>running_shirt_with_sash skis>ski bullseye>dart water_pistol>gun pool_8_ball>8ball
spade_suit>spades heart_suit>hearts diamond_suit>diamonds club_suit>clubs joker>black_joker mahjong_red_dragon>mahjong
framed_picture>frame_photo frame_with_picture>frame_photo artist_palette>art glasses>eyeglasses t_shirt>shirt woman_s_clothes>womans_clothes
clutch_bag>pouch backpack>school_satchel man_s_shoe>mans_shoe running_shoe>athletic_shoe high_heeled_shoe>high_heel woman_s_sandal>sandal
woman_s_boot>boot woman_s_hat>womans_hat top_hat>tophat graduation_cap>mortar_board rescue_worker_s_helmet>helmet_with_cross
helmet_with_white_cross>helmet_with_cross gem_stone>gem muted_speaker>mute speaker_low_volume>speaker speaker_medium_volume>sound
speaker_high_volume>loud_sound megaphone>mega bell_with_slash>no_bell musical_notes>notes studio_microphone>microphone2
headphone>headphones drum_with_drumsticks>drum mobile_phone>iphone mobile_phone_with_arrow>calling fax_machine>fax laptop>computer
desktop_computer>desktop computer_mouse>mouse_three_button three_button_mouse>mouse_three_button computer_disk>minidisc optical_disk>cd
film_projector>projector clapper_board>clapper television>tv videocassette>vhs magnifying_glass_tilted_left>mag
magnifying_glass_tilted_right>mag_right light_bulb>bulb red_paper_lantern>izakaya_lantern open_book>book rolled_up_newspaper>newspaper2
money_bag>moneybag yen_banknote>yen dollar_banknote>dollar euro_banknote>euro pound_banknote>pound chart_increasing_with_yen>chart
e_mail>e-mail email>e-mail closed_mailbox_with_raised_flag>mailbox closed_mailbox_with_lowered_flag>mailbox_closed
open_mailbox_with_raised_flag>mailbox_with_mail open_mailbox_with_lowered_flag>mailbox_with_no_mail ballot_box_with_ballot>ballot_box
fountain_pen>pen_fountain lower_left_fountain_pen>pen_fountain pen>pen_ballpoint lower_left_ballpoint_pen>pen_ballpoint
lower_left_paintbrush>paintbrush lower_left_crayon>crayon memo>pencil card_index_dividers>dividers tear_off_calendar>calendar
spiral_notepad>notepad_spiral spiral_note_pad>notepad_spiral spiral_calendar>calendar_spiral spiral_calendar_pad>calendar_spiral
chart_increasing>chart_with_upwards_trend chart_decreasing>chart_with_downwards_trend linked_paperclips>paperclips card_file_box>card_box
locked>lock unlocked>unlock locked_with_pen>lock_with_ink_pen locked_with_key>closed_lock_with_key old_key>key2 hammer_and_pick>hammer_pick
hammer_and_wrench>tools dagger_knife>dagger archery>bow_and_arrow clamp>compression balance_scale>scales satellite_antenna>satellite
couch_and_lamp>couch shopping_trolley>shopping_cart cigarette>smoking funeral_urn>urn moai>moyai atm_sign>atm
litter_in_bin_sign>put_litter_in_its_place wheelchair_symbol>wheelchair men_s_room>mens women_s_room>womens water_closet>wc
prohibited>no_entry_sign no_littering>do_not_litter non_potable_water>non-potable_water no_one_under_eighteen>underage
radioactive_sign>radioactive biohazard_sign>biohazard up_arrow>arrow_up up_right_arrow>arrow_upper_right right_arrow>arrow_right
down_right_arrow>arrow_lower_right down_arrow>arrow_down down_left_arrow>arrow_lower_left left_arrow>arrow_left up_left_arrow>arrow_upper_left
up_down_arrow>arrow_up_down right_arrow_curving_left>leftwards_arrow_with_hook left_arrow_curving_right>arrow_right_hook
right_arrow_curving_up>arrow_heading_up right_arrow_curving_down>arrow_heading_down clockwise_vertical_arrows>arrows_clockwise
counterclockwise_arrows_button>arrows_counterclockwise back_arrow>back end_arrow>end on_arrow>on soon_arrow>soon top_arrow>top
worship_symbol>place_of_worship atom_symbol>atom om>flag_om latin_cross>cross peace_symbol>peace dotted_six_pointed_star>six_pointed_star
scorpio>scorpius shuffle_tracks_button>twisted_rightwards_arrows repeat_button>repeat repeat_single_button>repeat_one
play_button>arrow_forward fast_forward_button>fast_forward next_track_button>track_next next_track>track_next play_or_pause_button>play_pause
reverse_button>arrow_backward fast_reverse_button>rewind last_track_button>track_previous previous_track>track_previous
upwards_button>arrow_up_small fast_up_button>arrow_double_up downwards_button>arrow_down_small fast_down_button>arrow_double_down
double_vertical_bar>pause_button eject_button>eject eject_symbol>eject dim_button>low_brightness bright_button>high_brightness
antenna_bars>signal_strength multiply>heavy_multiplication_x plus>heavy_plus_sign minus>heavy_minus_sign divide>heavy_division_sign
double_exclamation_mark>bangbang exclamation_question_mark>interrobang red_question_mark>question white_question_mark>grey_question
white_exclamation_mark>grey_exclamation red_exclamation_mark>exclamation recycling_symbol>recycle fleur_de_lis>fleur-de-lis
trident_emblem>trident japanese_symbol_for_beginner>beginner hollow_red_circle>o check_mark_button>white_check_mark
check_box_with_check>ballot_box_with_check check_mark>heavy_check_mark cross_mark>x cross_mark_button>negative_squared_cross_mark
double_curly_loop>loop eight_pointed_star>eight_pointed_black_star trade_mark>tm keycap_hash>hash keycap_asterisk>asterisk keycap_0>zero
keycap_1>one keycap_2>two keycap_3>three keycap_4>four keycap_5>five keycap_6>six keycap_7>seven keycap_8>eight keycap_9>nine
keycap_10>ten input_latin_uppercase>capital_abcd input_latin_lowercase>abcd input_numbers>1234 input_symbols>symbols
input_latin_letters>abc a_button_blood_type>a ab_button_blood_type>ab b_button_blood_type>b cl_button>cl cool_button>cool
free_button>free information>information_source id_button>id circled_m>m new_button>new ng_button>ng o_button_blood_type>o2 ok_button>ok
p_button>parking sos_button>sos up_button>up vs_button>vs japanese_here_button>koko japanese_service_charge_button>sa
japanese_monthly_amount_button>u6708 japanese_not_free_of_charge_button>u6709 japanese_reserved_button>u6307
japanese_bargain_button>ideograph_advantage japanese_discount_button>u5272 japanese_free_of_charge_button>u7121
japanese_prohibited_button>u7981 japanese_acceptable_button>accept japanese_application_button>u7533
japanese_passing_grade_button>u5408 japanese_vacancy_button>u7a7a japanese_congratulations_button>congratulations
japanese_secret_button>secret japanese_open_for_business_button>u55b6 japanese_no_vacancy_button>u6e80 blue_circle>large_blue_circle
red_triangle_pointed_up>small_red_triangle red_triangle_pointed_down>small_red_triangle_down
diamond_with_a_dot>diamond_shape_with_a_dot_inside chequered_flag>checkered_flag triangular_flag>triangular_flag_on_post
black_flag>flag_black waving_black_flag>flag_black white_flag>flag_white waving_white_flag>flag_white rainbow_flag>gay_pride_flag
`;

// The country flags: `cc:country` is `flag_country` and `cc`, aliases of `flag_cc`; after a `=` the
// short aliases that stand instead of `cc` (none after a bare `=`).
const FLAGS = `
ac:ascension_island ad:andorra ae:united_arab_emirates af:afghanistan ag:antigua_barbuda ai:anguilla al:albania am:armenia ao:angola
aq:antarctica ar:argentina as:american_samoa at:austria au:australia aw:aruba ax:aland_islands az:azerbaijan ba:bosnia_herzegovina
bb:barbados bd:bangladesh be:belgium bf:burkina_faso bg:bulgaria bh:bahrain bi:burundi bj:benin bl:st_barthelemy bm:bermuda bn:brunei
bo:bolivia bq:caribbean_netherlands br:brazil bs:bahamas bt:bhutan bv:bouvet_island bw:botswana by:belarus bz:belize ca:canada
cc:cocos_keeling_islands cd:congo_kinshasa=congo cf:central_african_republic cg:congo_brazzaville ch:switzerland ci:cote_d_ivoire
ck:cook_islands cl:chile=chile cm:cameroon cn:china co:colombia cp:clipperton_island cr:costa_rica cu:cuba cv:cape_verde cw:curacao
cx:christmas_island cy:cyprus cz:czechia de:germany dg:diego_garcia dj:djibouti dk:denmark dm:dominica do:dominican_republic dz:algeria
ea:ceuta_melilla ec:ecuador ee:estonia eg:egypt eh:western_sahara er:eritrea es:spain et:ethiopia eu:european_union fi:finland fj:fiji
fk:falkland_islands fm:micronesia fo:faroe_islands fr:france ga:gabon gb:united_kingdom gd:grenada ge:georgia gf:french_guiana
gg:guernsey gh:ghana gi:gibraltar gl:greenland gm:gambia gn:guinea gp:guadeloupe gq:equatorial_guinea gr:greece
gs:south_georgia_south_sandwich_islands gt:guatemala gu:guam gw:guinea_bissau gy:guyana hk:hong_kong_sar_china hm:heard_mcdonald_islands
hn:honduras hr:croatia ht:haiti hu:hungary ic:canary_islands id:indonesia=indonesia ie:ireland il:israel im:isle_of_man in:india
io:british_indian_ocean_territory iq:iraq ir:iran is:iceland it:italy je:jersey jm:jamaica jo:jordan jp:japan ke:kenya kg:kyrgyzstan
kh:cambodia ki:kiribati km:comoros kn:st_kitts_nevis kp:north_korea kr:south_korea kw:kuwait ky:cayman_islands kz:kazakhstan la:laos
lb:lebanon lc:st_lucia li:liechtenstein lk:sri_lanka lr:liberia ls:lesotho lt:lithuania lu:luxembourg lv:latvia ly:libya ma:morocco
mc:monaco md:moldova me:montenegro mf:st_martin mg:madagascar mh:marshall_islands mk:north_macedonia ml:mali mm:myanmar_burma
mn:mongolia mo:macao_sar_china mp:northern_mariana_islands mq:martinique mr:mauritania ms:montserrat mt:malta mu:mauritius mv:maldives
mw:malawi mx:mexico my:malaysia mz:mozambique na:namibia nc:new_caledonia ne:niger nf:norfolk_island ng:nigeria=nigeria ni:nicaragua
nl:netherlands no:norway np:nepal nr:nauru nu:niue nz:new_zealand om:oman= pa:panama pe:peru pf:french_polynesia pg:papua_new_guinea
ph:philippines pk:pakistan pl:poland pm:st_pierre_miquelon pn:pitcairn_islands pr:puerto_rico ps:palestinian_territories pt:portugal
pw:palau py:paraguay qa:qatar re:reunion ro:romania rs:serbia ru:russia rw:rwanda sa:saudi_arabia=saudiarabia=saudi
sb:solomon_islands sc:seychelles sd:sudan se:sweden sg:singapore sh:st_helena si:slovenia sj:svalbard_jan_mayen sk:slovakia
sl:sierra_leone sm:san_marino sn:senegal so:somalia sr:suriname ss:south_sudan st:sao_tome_principe sv:el_salvador sx:sint_maarten
sy:syria sz:eswatini ta:tristan_da_cunha tc:turks_caicos_islands td:chad tf:french_southern_territories tg:togo th:thailand
tj:tajikistan tk:tokelau tl:timor_leste tm:turkmenistan=turkmenistan tn:tunisia to:tonga tr:turkiye tt:trinidad_tobago tv:tuvalu=tuvalu
tw:taiwan tz:tanzania ua:ukraine ug:uganda um:u_s_outlying_islands us:united_states uy:uruguay uz:uzbekistan va:vatican_city
vc:st_vincent_grenadines ve:venezuela vg:british_virgin_islands vi:u_s_virgin_islands vn:vietnam vu:vanuatu wf:wallis_futuna ws:samoa
xk:kosovo ye:yemen yt:mayotte za:south_africa zm:zambia zw:zimbabwe
`;

const LAST = 'un>flag_united_nations england>flag_england scotland>flag_scotland wales>flag_wales';

const SKIN_TONES = ['light', 'medium_light', 'medium', 'medium_dark', 'dark'];

/** The table: alias to name, in a map (no prototype to reach through user input). */
export function aliasTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (const entry of `${ENTRIES} ${LAST}`.split(/\s+/)) {
    if (entry === '') continue;
    const [pair, ...flags] = entry.split('/');
    const tonesOnly = pair!.startsWith('-') && !pair!.startsWith('-1>');
    const [alias, name] = (tonesOnly ? pair!.slice(1) : pair!).split('>') as [string, string];
    if (!tonesOnly && alias !== name) table.set(alias, name);
    for (const flag of flags) {
      SKIN_TONES.forEach((tone, i) => table.set(flag === 's' ? `${alias}_${tone}_skin_tone` : `${alias}_tone${i + 1}`, `${name}_tone${i + 1}`));
    }
  }
  for (const entry of FLAGS.split(/\s+/)) {
    if (entry === '') continue;
    const [code, rest] = entry.split(':') as [string, string];
    const [country, ...shorts] = rest.split('=');
    table.set(`flag_${country}`, `flag_${code}`);
    for (const short of rest.includes('=') ? shorts.filter((s) => s !== '') : [code]) table.set(short, `flag_${code}`);
  }
  return table;
}
