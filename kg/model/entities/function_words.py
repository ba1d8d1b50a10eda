"""Words that never name a thing alone: pronouns and determiners, and honorifics.

A mention whose words are all of these ("that", "we", "no-one", "Mr", "Sir", "his mother" is not:
"mother" is none of them) is no proper name, whatever its case (kg.model.entities.names).

PRONOUNS_AND_DETERMINERS holds, per language, the personal, possessive, demonstrative,
interrogative-relative and indefinite pronouns and the determiners found among spaCy's stop words
for that language (spaCy 3.8, `spacy/lang/<code>/stop_words.py`, MIT licence): every word listed
here is one of spaCy's stop words for its language (tests/model/test_names.py checks it against
the installed spaCy), but only these classes are taken, as the other stop words (verbs, numbers,
adverbs: "will", "may", "one") may well be names. HONORIFICS are the titles and terms of address of those
languages, alone a way to address someone rather than a name ("Sir", "Father", "Captain"; no
stop-word list carries them). Words are compared folded (kg.model.iris.fold:
accents and case stripped), so the lists are written folded too, and a mention's language need
not be known: a word of one language's list is rarely a name alone in another.
"""

from __future__ import annotations

from functools import lru_cache

from kg.model.iris import fold

PRONOUNS_AND_DETERMINERS: dict[str, str] = {
    "en": "i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its "
          "itself we us our ours ourselves they them their themselves this that these those who whom whose which "
          "what whatever whoever a an the some any each every either neither no none nobody noone nothing someone "
          "something anyone anything everyone everything other another such all both few many several much one",
    "de": "ich mich mir mein meine du dich dir dein deine er ihn ihm sein seine sie ihr ihre es wir uns unser unsere "
          "euch ihnen der die das den dem des ein eine einer eines einem einen dieser diese dieses diesen diesem "
          "jener jene jenes welcher welche welches wer wen wem wessen was man jemand niemand nichts alle jeder jede "
          "kein keine keiner",
    "fr": "je me moi tu te toi il elle lui nous vous ils elles leur leurs eux se soi le la les un une des du ce cet "
          "cette ces mon ma mes ton ta tes son sa ses notre nos votre vos qui que quoi dont lequel laquelle lesquels "
          "on personne chaque tout toute tous toutes",
    "es": "yo me mi mis tu tú te ti él ella ello nosotros nosotras vosotros vosotras ellos ellas les lo la los las le "
          "se su sus nuestro nuestra nuestros nuestras vuestro vuestra el un una unos unas este esta estos estas ese "
          "esa esos esas aquel aquella aquellos aquellas quien quienes que cual cuales nadie nada algo cada ningún "
          "ninguno ninguna todo toda todos todas",
    "it": "io me mi tu te ti lui lei egli ella noi ci voi vi loro essi esse si il lo la gli le un uno una mio mia "
          "miei mie tuo tua tuoi tue suo sua suoi sue nostro nostra vostro vostra questo questa questi queste "
          "quello quella quelli quelle chi che cui nessuno niente ogni tutto tutti",
    "pt": "eu me tu te ele ela nós vós eles elas lhe se o a os as um uma uns umas meu minha meus minhas teu tua seu "
          "sua seus suas nosso nossa este esta estes estas esse essa esses essas aquele aquela aqueles aquelas quem "
          "que qual quais nada algo cada todo toda todos todas",
    "nl": "ik me mij mijn jij je jou jouw u uw hij hem zijn zij ze haar het wij we ons onze jullie hun hen de een "
          "dit dat deze die wie wat welk welke niets iemand iets ieder elk elke alle geen",
    "ru": "я меня мне мной ты тебя тебе тобой он его ему им нём она её ей ней ею оно мы нас нам нами вы вас вам "
          "вами они их ими них мой моя моё мои твой твоя наш наша ваш ваша свой свою себя себе этот эта это эти "
          "тот та то те кто что который которая которое которые какой какая чей никто ничто ничего весь вся всё "
          "все каждый",
    "uk": "я мене мені мною ти тебе тобою він його йому ним воно вона її їй нею ми нас нам нами ви вас вам вами "
          "вони їх їм ними мій моя моє мої твій твоя наш наша ваш ваша свою себе цей ця це ці той та те хто що "
          "який яка які чий весь вся все всі кожен",
    "sl": "jaz mene me mi ti tebe te tebi on njega ga njemu mu nje je njej ji nas nam vi vas vam oni njih jih njim "
          "jim moj moja moje tvoj naš naša vaš njegov njen ta to tisti tista kdo kaj nič vsak vsi",
    "la": "ego tu nos is hic ille ipse qui quae quis idem suus",
    "zh": "我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 这 那 这个 那个 这些 那些 这里 那里 谁 什么 哪 其 此 某 各 每 本 该 之",
    "ja": "これ それ あれ この その ここ そこ",
    "hi": "मैं मेरा आप वह वे यह ये उस उन इस इन उसे उन्हें इसे इन्हें उनका इसका कौन जो कोई कुछ सभी",
    "sa": "अहम् त्वम् सः सा तत् वयम् यूयम् ते ताः अयम् इयम् इदम् एषः एषा एतत् कः का किम्",
    "th": "ฉัน เรา คุณ เขา เธอ มัน นี่ นั่น นี้ นั้น ใคร อะไร",
}

# The determiners and numerals that introduce an indefinite noun phrase ("a Venezuelan soldier", "two
# Colombian officials"): a name is never introduced so. Also among spaCy's stop words for their language.
INDEFINITE: dict[str, str] = {
    "en": "a an some several many any another each every few two three four five six eight nine ten",
    "de": "ein eine einen einem einer eines einige",
    "fr": "un une des quelques plusieurs",
    "es": "un una unos unas algunos algunas varios varias",
    "it": "un uno una alcuni",
    "pt": "um uma uns umas alguns algumas",
    "nl": "een enkele",
    "ru": "один одна одно несколько",
    "uk": "один кілька",
}

HONORIFICS: dict[str, str] = {
    "en": "mr mrs ms miss mister madam madame dame sir lady lord dr prof rev st saint doctor professor "
          "reverend father mother brother sister aunt uncle grandfather grandmother grandpa grandma papa mama mamma "
          "master mistress captain colonel general major lieutenant sergeant admiral commander judge king queen "
          "prince princess duke duchess count countess baron baroness emperor empress president governor mayor",
    "de": "herr frau fraulein",
    "fr": "monsieur madame mademoiselle mme mlle",
    "es": "senor senora senorita don dona sr sra",
    "it": "signor signore signora signorina",
    "pt": "senhor senhora dom dona",
    "nl": "meneer mevrouw heer",
    "ru": "господин госпожа",
    "uk": "пан пані",
    "zh": "先生 女士 小姐 夫人 太太",
    "ja": "さん 様 氏",
}

FUNCTION_WORDS: frozenset[str] = frozenset(
    fold(word) for table in (PRONOUNS_AND_DETERMINERS, HONORIFICS) for words in table.values()
    for word in words.split())


INDEFINITE_WORDS: frozenset[str] = frozenset(fold(word) for words in INDEFINITE.values() for word in words.split())


@lru_cache(maxsize=1 << 16)  # asked of the first word of every mention
def is_indefinite(word: str) -> bool:
    """Whether a word (any case, but not an acronym: "UN") introduces an indefinite noun phrase, or is
    a number."""
    return word.isdigit() or (not _acronym(word) and fold(word) in INDEFINITE_WORDS)


def _acronym(word: str) -> bool:
    return len(word) > 1 and word.isupper()


@lru_cache(maxsize=1 << 16)  # a corpus's words repeat: folding each one again cost a build seconds
def is_function_word(word: str) -> bool:
    """Whether a word (any case) is a pronoun, determiner or honorific of one of the languages above.
    An all-capital word of two letters or more is an acronym, never one of them ("US", "IT")."""
    return not _acronym(word) and fold(word) in FUNCTION_WORDS
